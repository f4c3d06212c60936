package dev.locksmith.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A release or hand-over got an error or no answer; the lock frees itself when its lease runs out.
 */
@Name("dev.locksmith.LockReleaseFailed")
@Label("Lock Release Failed")
@Category("Locksmith")
@Description("A release or hand-over of a Locksmith lock got an error or no answer; the lock stays taken"
        + " until its lease runs out")
@StackTrace(false)
class LockReleaseFailedEvent extends LocksmithEvent {
    @Label("Lock Name")
    String lockName;

    @Label("Kind")
    String kind;

    @Label("Template")
    String template;

    @Label("Error Kind")
    @Description("transient, or the code Redis refused with, such as NOPERM or OOM")
    String errorKind;
}
