package dev.locksmith.internal.observe;

/**
 * Receives what happens to a manager's locks. Implementations must be cheap and should not throw:
 * they run on the lock's own path; {@link GuardedObserver} keeps what they throw off it.
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
     * A guarded call did not run its work because the lock was held elsewhere ({@code WhenHeld.SKIP});
     * its wait was also told {@link WaitObservation#skipped()}.
     *
     * @param label the lock
     */
    default void skipped(LockLabel label) {
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

    /**
     * A release passed the lock straight to another thread of this process, in one script call
     * instead of a release, a wake-up and a new acquisition.
     *
     * @param label the lock
     */
    default void handedOver(LockLabel label) {
    }

    /**
     * A release offered the lock to the next process of its ring of waiting processes instead of
     * freeing it: that process alone is woken.
     *
     * @param label the lock
     */
    default void yielded(LockLabel label) {
    }

    /**
     * A release or hand-over that was sent got an error or no answer. The hold was dropped from
     * the watchdog, so the lock frees itself when its lease runs out.
     *
     * @param label     the lock
     * @param errorKind the error's class as {@code RedisErrors.kind} names it, such as {@code transient},
     *                  {@code NOPERM} or {@code OOM}
     */
    default void releaseFailed(LockLabel label, String errorKind) {
    }

    /**
     * The fence table refused a holder's write: a later holder's token was already there.
     *
     * @param label         the lock
     * @param fencingToken  the refused holder's token
     * @param databaseToken the later token the table had
     */
    default void fenceRefused(LockLabel label, long fencingToken, long databaseToken) {
    }
}
