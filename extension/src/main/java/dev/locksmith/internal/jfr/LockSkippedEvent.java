package dev.locksmith.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A job was not run because its lock was held elsewhere ({@code WhenHeld.SKIP}).
 */
@Name("dev.locksmith.LockSkipped")
@Label("Lock Skipped")
@Category("Locksmith")
@Description("A job under a Locksmith lock was not run because the lock was held elsewhere: another server runs"
        + " or ran this slot")
@StackTrace(false)
class LockSkippedEvent extends jdk.jfr.Event {
    @Label("Lock Name")
    String lockName;

    @Label("Kind")
    String kind;

    @Label("Template")
    String template;

    @Label("Caller Thread")
    @Description("The thread whose call this is. A virtual thread's events are written by Locksmith's"
            + " locksmith-jfr thread, which is then the event's own thread")
    Thread callerThread;
}
