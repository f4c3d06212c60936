package dev.locksmith.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The fence table refused a holder's write: a later holder of the same lock had already checked
 * in with a larger fencing token.
 */
@Name("dev.locksmith.FencedWriteRefused")
@Label("Fenced Write Refused")
@Category("Locksmith")
@Description("The fence table refused the transaction of a Locksmith lock holder whose lock a later holder had taken")
@StackTrace(true)
class FencedWriteRefusedEvent extends LocksmithEvent {
    @Label("Lock Name")
    String lockName;

    @Label("Template")
    String template;

    @Label("Fencing Token")
    long fencingToken;

    @Label("Database Token")
    long databaseToken;

    @Label("Call Site")
    @Description("A virtual thread's frames below Locksmith's, innermost first; a platform thread's event has"
            + " its stack trace instead")
    String callSite;
}
