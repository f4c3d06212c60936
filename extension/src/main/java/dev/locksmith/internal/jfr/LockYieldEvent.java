package dev.locksmith.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A release offered the lock to the next waiting process of its ring, instead of freeing it.
 */
@Name("dev.locksmith.LockYield")
@Label("Lock Yield")
@Category("Locksmith")
@Description("A release offered a Locksmith lock to the next process waiting for it (one process is woken,"
        + " not all)")
@StackTrace(false)
class LockYieldEvent extends LocksmithEvent {
    @Label("Lock Name")
    String lockName;

    @Label("Kind")
    String kind;

    @Label("Template")
    String template;
}
