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
class LockLostEvent extends jdk.jfr.Event {
    @Label("Lock Name")
    String lockName;

    @Label("Kind")
    String kind;

    @Label("Template")
    String template;

    @Label("Fencing Token")
    long fencingToken;

    @Label("Caller Thread")
    @Description("The thread whose call this is. A virtual thread's events are written by Locksmith's"
            + " locksmith-jfr thread, which is then the event's own thread")
    Thread callerThread;
}
