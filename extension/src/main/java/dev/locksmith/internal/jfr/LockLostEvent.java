package dev.locksmith.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A held lock was lost: its lease ran out or it was taken away.
 */
@Name("dev.locksmith.LockLost")
@Label("Lock Lost")
@Category("Locksmith")
@Description("A held Locksmith lock was lost: its lease ran out or it was force-unlocked")
@StackTrace(false)
class LockLostEvent extends LocksmithEvent {
    @Label("Lock Name")
    String lockName;

    @Label("Kind")
    String kind;

    @Label("Template")
    String template;

    @Label("Fencing Token")
    long fencingToken;
}
