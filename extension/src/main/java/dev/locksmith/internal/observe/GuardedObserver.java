package dev.locksmith.internal.observe;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An observer whose failures stay off the lock's path: whatever the observer, or a wait or hold
 * observation it returned, throws (a {@link RuntimeException}, or a {@link LinkageError} such as
 * the {@link NoClassDefFoundError} of a telemetry API that is only half on the class path) is
 * logged at WARNING and the lock goes on as if the observer had returned. Each method's first
 * failure is logged; later ones in the same method are not, because they would repeat on every
 * acquisition.
 *
 * <p>Any thread that uses a lock may call it, as the observer it wraps is called.
 */
public final class GuardedObserver implements LockObserver {
    private static final Logger LOG = System.getLogger(GuardedObserver.class.getName());

    private final LockObserver observer;
    private final Set<String> failedMethods = ConcurrentHashMap.newKeySet();

    private GuardedObserver(LockObserver observer) {
        this.observer = observer;
    }

    /**
     * @param observer the observer to guard
     * @return an observer that tells {@code observer} everything and never throws; {@link LockObserver#NONE}
     *         and an already guarded observer unchanged
     */
    public static LockObserver guard(LockObserver observer) {
        if (observer == LockObserver.NONE || observer instanceof GuardedObserver) {
            return observer;
        }
        return new GuardedObserver(observer);
    }

    // Each method catches on its own rather than through a shared helper taking a lambda: these
    // run on every acquisition and release, where a capturing lambda would allocate.
    @Override
    public WaitObservation waitStarted(LockLabel label, boolean traced) {
        WaitObservation wait;
        try {
            wait = observer.waitStarted(label, traced);
        } catch (RuntimeException | LinkageError e) {
            report("waitStarted", e);
            return WaitObservation.NONE;
        }
        return wait == WaitObservation.NONE || wait == null ? WaitObservation.NONE : new GuardedWait(wait);
    }

    @Override
    public HoldObservation holdStarted(LockLabel label, long fencingToken) {
        HoldObservation hold;
        try {
            hold = observer.holdStarted(label, fencingToken);
        } catch (RuntimeException | LinkageError e) {
            report("holdStarted", e);
            return HoldObservation.NONE;
        }
        return hold == HoldObservation.NONE || hold == null ? HoldObservation.NONE : new GuardedHold(hold);
    }

    @Override
    public void skipped(LockLabel label) {
        try {
            observer.skipped(label);
        } catch (RuntimeException | LinkageError e) {
            report("skipped", e);
        }
    }

    @Override
    public void renewed(int holds) {
        try {
            observer.renewed(holds);
        } catch (RuntimeException | LinkageError e) {
            report("renewed", e);
        }
    }

    @Override
    public void renewalFailed(int holds) {
        try {
            observer.renewalFailed(holds);
        } catch (RuntimeException | LinkageError e) {
            report("renewalFailed", e);
        }
    }

    @Override
    public void redisError(String kind) {
        try {
            observer.redisError(kind);
        } catch (RuntimeException | LinkageError e) {
            report("redisError", e);
        }
    }

    @Override
    public void handedOver(LockLabel label) {
        try {
            observer.handedOver(label);
        } catch (RuntimeException | LinkageError e) {
            report("handedOver", e);
        }
    }

    @Override
    public void yielded(LockLabel label) {
        try {
            observer.yielded(label);
        } catch (RuntimeException | LinkageError e) {
            report("yielded", e);
        }
    }

    @Override
    public void releaseFailed(LockLabel label, String errorKind) {
        try {
            observer.releaseFailed(label, errorKind);
        } catch (RuntimeException | LinkageError e) {
            report("releaseFailed", e);
        }
    }

    @Override
    public void fenceRefused(LockLabel label, long fencingToken, long databaseToken) {
        try {
            observer.fenceRefused(label, fencingToken, databaseToken);
        } catch (RuntimeException | LinkageError e) {
            report("fenceRefused", e);
        }
    }

    private void report(String method, Throwable failure) {
        if (failedMethods.add(method)) {
            LOG.log(Level.WARNING, () -> "Lock observer " + observer.getClass().getName() + " failed in " + method
                    + "; the lock went on without it. Later failures of " + method + " are not logged.", failure);
        }
    }

    /**
     * A wait observation whose failures are logged, not thrown.
     */
    private final class GuardedWait implements WaitObservation {
        private final WaitObservation wait;

        GuardedWait(WaitObservation wait) {
            this.wait = wait;
        }

        @Override
        public void acquired(long fencingToken) {
            try {
                wait.acquired(fencingToken);
            } catch (RuntimeException | LinkageError e) {
                report("WaitObservation.acquired", e);
            }
        }

        @Override
        public void timedOut() {
            try {
                wait.timedOut();
            } catch (RuntimeException | LinkageError e) {
                report("WaitObservation.timedOut", e);
            }
        }

        @Override
        public void skipped() {
            try {
                wait.skipped();
            } catch (RuntimeException | LinkageError e) {
                report("WaitObservation.skipped", e);
            }
        }

        @Override
        public void interrupted() {
            try {
                wait.interrupted();
            } catch (RuntimeException | LinkageError e) {
                report("WaitObservation.interrupted", e);
            }
        }

        @Override
        public void failed(Throwable failure) {
            try {
                wait.failed(failure);
            } catch (RuntimeException | LinkageError e) {
                report("WaitObservation.failed", e);
            }
        }
    }

    /**
     * A hold observation whose failures are logged, not thrown.
     */
    private final class GuardedHold implements HoldObservation {
        private final HoldObservation hold;

        GuardedHold(HoldObservation hold) {
            this.hold = hold;
        }

        @Override
        public void lost() {
            try {
                hold.lost();
            } catch (RuntimeException | LinkageError e) {
                report("HoldObservation.lost", e);
            }
        }

        @Override
        public void ended() {
            try {
                hold.ended();
            } catch (RuntimeException | LinkageError e) {
                report("HoldObservation.ended", e);
            }
        }
    }
}
