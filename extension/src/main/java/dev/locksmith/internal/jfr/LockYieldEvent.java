package dev.locksmith.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A release left the lock to other processes after several hand-overs in a row.
 */
@Name("dev.locksmith.LockYield")
@Label("Lock Yield")
@Category("Locksmith")
@Description("A release left a Locksmith lock to waiters of other processes after this process had passed it"
        + " among its own threads several times in a row")
@StackTrace(false)
class LockYieldEvent extends jdk.jfr.Event {
    @Label("Lock Name")
    String lockName;

    @Label("Kind")
    String kind;

    @Label("Template")
    String template;
}
