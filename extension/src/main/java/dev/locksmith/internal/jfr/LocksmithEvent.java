package dev.locksmith.internal.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;

/**
 * What every Locksmith event says about the thread whose call it records. The event's own thread says
 * the same for a platform thread; a virtual thread's events are written by Locksmith's {@code locksmith-jfr}
 * thread ({@link EventWriting}), so these fields are where the caller is named. They are plain values, not
 * a {@code Thread} field: Flight Recorder resolves a {@code Thread} field of another, possibly finished,
 * virtual thread only now and then in a streamed recording (2,912 of 3,956 events of one test run came out as N/A).
 */
abstract class LocksmithEvent extends jdk.jfr.Event {
    @Label("Caller Thread Id")
    @Description("The Java thread id (Thread.threadId()) of the thread whose call this is")
    long callerThreadId;

    @Label("Caller Thread Name")
    @Description("The name of the thread whose call this is; empty for an unnamed virtual thread")
    String callerThreadName;

    @Label("Caller Virtual")
    @Description("Whether the thread whose call this is is a virtual thread, whose events Locksmith's"
            + " locksmith-jfr thread writes")
    boolean callerVirtual;

    @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19, the library runs on 17
    final void calledFrom(Thread caller) {
        callerThreadId = caller.getId();
        callerThreadName = caller.getName();
        callerVirtual = VirtualThreads.isVirtual(caller);
    }
}
