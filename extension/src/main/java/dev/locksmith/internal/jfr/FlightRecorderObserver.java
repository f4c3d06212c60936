package dev.locksmith.internal.jfr;

import dev.locksmith.internal.observe.HoldObservation;
import dev.locksmith.internal.observe.LockLabel;
import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.internal.observe.WaitObservation;

/**
 * Writes {@code dev.locksmith.LockWait}, {@code LockHeld}, {@code LockLost}, {@code LockHandOver},
 * {@code LockYield}, {@code LockReleaseFailed}, {@code LockSkipped} and {@code FencedWriteRefused} events. Each is begun and committed only when
 * Flight Recorder records it, so without a recording the cost is a check per wait, hold and release.
 *
 * <p>Every event names the thread whose call it records ({@code callerThreadId}, {@code callerThreadName},
 * {@code callerVirtual}). A platform thread commits its events itself, with their
 * stack traces; a virtual thread sets the fields, its {@code callSite} for the two events that carry a
 * stack trace, and the start and end, then hands the commit to {@link EventWriting}, so that it never
 * sends a string to Flight Recorder's pool, where the JDK pins it and takes a monitor.
 */
public final class FlightRecorderObserver implements LockObserver {

    @Override
    public WaitObservation waitStarted(LockLabel label, boolean traced) {
        LockWaitEvent event = new LockWaitEvent();
        if (!event.isEnabled()) {
            return WaitObservation.NONE;
        }
        event.begin();
        return new WaitObservation() {
            @Override
            public void acquired(long fencingToken) {
                event.fencingToken = fencingToken;
                end("acquired");
            }

            @Override
            public void timedOut() {
                end("timeout");
            }

            @Override
            public void skipped() {
                end("skipped");
            }

            @Override
            public void interrupted() {
                end("interrupted");
            }

            @Override
            public void failed(Throwable failure) {
                end("error");
            }

            private void end(String outcome) {
                event.end();
                if (event.shouldCommit()) {
                    event.lockName = label.name();
                    event.kind = label.kind();
                    event.template = label.template();
                    event.outcome = outcome;
                    event.calledFrom(Thread.currentThread());
                    event.callSite = callSiteOfVirtualThread();
                    EventWriting.SHARED.commit(event);
                }
            }
        };
    }

    @Override
    public HoldObservation holdStarted(LockLabel label, long fencingToken) {
        LockHeldEvent held = new LockHeldEvent();
        if (held.isEnabled()) {
            held.begin();
        }
        return new HoldObservation() {
            @Override
            public void lost() {
                held.lost = true;
                LockLostEvent event = new LockLostEvent();
                if (event.isEnabled()) {
                    event.lockName = label.name();
                    event.kind = label.kind();
                    event.template = label.template();
                    event.fencingToken = fencingToken;
                    event.calledFrom(Thread.currentThread());
                    EventWriting.SHARED.commit(event);
                }
            }

            @Override
            public void ended() {
                if (!held.isEnabled()) {
                    return;
                }
                held.end();
                if (held.shouldCommit()) {
                    held.lockName = label.name();
                    held.kind = label.kind();
                    held.template = label.template();
                    held.fencingToken = fencingToken;
                    held.calledFrom(Thread.currentThread());
                    EventWriting.SHARED.commit(held);
                }
            }
        };
    }

    @Override
    public void skipped(LockLabel label) {
        LockSkippedEvent event = new LockSkippedEvent();
        if (event.isEnabled()) {
            event.lockName = label.name();
            event.kind = label.kind();
            event.template = label.template();
            event.calledFrom(Thread.currentThread());
            EventWriting.SHARED.commit(event);
        }
    }

    @Override
    public void handedOver(LockLabel label) {
        LockHandOverEvent event = new LockHandOverEvent();
        if (event.isEnabled()) {
            event.lockName = label.name();
            event.kind = label.kind();
            event.template = label.template();
            event.calledFrom(Thread.currentThread());
            EventWriting.SHARED.commit(event);
        }
    }

    @Override
    public void yielded(LockLabel label) {
        LockYieldEvent event = new LockYieldEvent();
        if (event.isEnabled()) {
            event.lockName = label.name();
            event.kind = label.kind();
            event.template = label.template();
            event.calledFrom(Thread.currentThread());
            EventWriting.SHARED.commit(event);
        }
    }

    @Override
    public void releaseFailed(LockLabel label, String errorKind) {
        LockReleaseFailedEvent event = new LockReleaseFailedEvent();
        if (event.isEnabled()) {
            event.lockName = label.name();
            event.kind = label.kind();
            event.template = label.template();
            event.errorKind = errorKind;
            event.calledFrom(Thread.currentThread());
            EventWriting.SHARED.commit(event);
        }
    }

    @Override
    public void fenceRefused(LockLabel label, long fencingToken, long databaseToken) {
        FencedWriteRefusedEvent event = new FencedWriteRefusedEvent();
        if (event.isEnabled()) {
            event.lockName = label.name();
            event.template = label.template();
            event.fencingToken = fencingToken;
            event.databaseToken = databaseToken;
            event.calledFrom(Thread.currentThread());
            event.callSite = callSiteOfVirtualThread();
            EventWriting.SHARED.commit(event);
        }
    }

    private static String callSiteOfVirtualThread() {
        return VirtualThreads.isVirtual(Thread.currentThread()) ? CallSite.ofCurrentThread() : null;
    }
}
