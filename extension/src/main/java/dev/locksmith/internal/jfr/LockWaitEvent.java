package dev.locksmith.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * A thread waited for a distributed lock; recorded when the wait took at least 1 ms.
 */
@Name("dev.locksmith.LockWait")
@Label("Lock Wait")
@Category("Locksmith")
@Description("A thread waited for a Locksmith distributed lock")
@Threshold("1 ms")
@StackTrace(true)
class LockWaitEvent extends LocksmithEvent {
    @Label("Lock Name")
    String lockName;

    @Label("Kind")
    String kind;

    @Label("Template")
    String template;

    @Label("Outcome")
    @Description("acquired, timeout, skipped, interrupted or error")
    String outcome;

    @Label("Fencing Token")
    long fencingToken;

    @Label("Call Site")
    @Description("A virtual thread's frames below Locksmith's, innermost first; a platform thread's event has"
            + " its stack trace instead")
    String callSite;
}
