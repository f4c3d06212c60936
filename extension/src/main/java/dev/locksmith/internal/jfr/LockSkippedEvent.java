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
class LockSkippedEvent extends LocksmithEvent {
    @Label("Lock Name")
    String lockName;

    @Label("Kind")
    String kind;

    @Label("Template")
    String template;
}
