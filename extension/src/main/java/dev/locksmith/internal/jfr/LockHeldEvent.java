package dev.locksmith.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * A distributed lock was held; recorded when the hold lasted at least 20 ms.
 */
@Name("dev.locksmith.LockHeld")
@Label("Lock Held")
@Category("Locksmith")
@Description("A Locksmith distributed lock was held, from its grant to its release")
@Threshold("20 ms")
@StackTrace(false)
class LockHeldEvent extends LocksmithEvent {
    @Label("Lock Name")
    String lockName;

    @Label("Kind")
    String kind;

    @Label("Template")
    String template;

    @Label("Fencing Token")
    long fencingToken;

    @Label("Lost")
    @Description("Whether the lease ran out or the lock was taken away while held")
    boolean lost;
}
