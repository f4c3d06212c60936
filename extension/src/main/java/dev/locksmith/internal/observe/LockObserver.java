package dev.locksmith.internal.observe;

/**
 * Receives what happens to a manager's locks. Implementations must be cheap and must not throw:
 * they run on the lock's own path.
 */
public interface LockObserver {
    /** Records nothing. */
    LockObserver NONE = new LockObserver() {
    };

    /**
     * @param label  the lock
     * @param traced whether the wait gets a span ({@code @Locked} and {@code callWithLock})
     * @return the wait, to be told its outcome
     */
    default WaitObservation waitStarted(LockLabel label, boolean traced) {
        return WaitObservation.NONE;
    }

    /**
     * @param label        the lock
     * @param fencingToken the hold's token
     * @return the hold, to be told of its loss and end
     */
    default HoldObservation holdStarted(LockLabel label, long fencingToken) {
        return HoldObservation.NONE;
    }

    /**
     * @param holds how many leases one watchdog round trip renewed
     */
    default void renewed(int holds) {
    }

    /**
     * @param holds how many leases a watchdog round trip failed to renew
     */
    default void renewalFailed(int holds) {
    }

    /**
     * @param kind the error's class, such as {@code transient} or {@code NOPERM}
     */
    default void redisError(String kind) {
    }
}
