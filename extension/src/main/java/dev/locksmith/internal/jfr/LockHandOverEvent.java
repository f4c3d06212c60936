package dev.locksmith.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A release passed the lock straight to another thread of this process.
 */
@Name("dev.locksmith.LockHandOver")
@Label("Lock Hand-Over")
@Category("Locksmith")
@Description("A release passed a Locksmith lock straight to another thread of this process")
@StackTrace(false)
class LockHandOverEvent extends LocksmithEvent {
    @Label("Lock Name")
    String lockName;

    @Label("Kind")
    String kind;

    @Label("Template")
    String template;
}
