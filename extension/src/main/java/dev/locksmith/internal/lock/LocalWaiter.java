package dev.locksmith.internal.lock;

import java.util.concurrent.locks.Condition;

/**
 * One thread of this process in the line for a lock ({@link LocalContention}): the signal that
 * wakes it alone, and the hand-over a release in this process may make to it. Guarded by the
 * mutex of the {@link LocalContention} it waits in.
 */
final class LocalWaiter {
    private final String owner;
    private final long leaseMillis;
    private final String threadName;
    private final Condition signal;
    private boolean parked;
    private boolean claimed;
    private boolean settled;
    private long token;
    private long sentAt;

    /**
     * @param owner       who waits
     * @param leaseMillis the lease it asks for
     * @param threadName  the waiting thread, shown by inspection once it holds the lock
     * @param signal      a condition of the line's mutex, for this waiter alone
     */
    LocalWaiter(String owner, long leaseMillis, String threadName, Condition signal) {
        this.owner = owner;
        this.leaseMillis = leaseMillis;
        this.threadName = threadName;
        this.signal = signal;
    }

    /**
     * @return what the waiter would ask Redis for, as of {@code sinceMillis}
     */
    AcquireRequest request(long sinceMillis, long counterLifetimeMillis) {
        return new AcquireRequest(owner, leaseMillis, sinceMillis, threadName, counterLifetimeMillis);
    }

    Condition signal() {
        return signal;
    }

    /**
     * @return true while the thread sleeps where a hand-over would wake it; a waiter that is
     *         asking Redis, or leaving, is not offered one
     */
    boolean isParked() {
        return parked;
    }

    void parked(boolean sleeping) {
        parked = sleeping;
    }

    void claim() {
        claimed = true;
        settled = false;
    }

    boolean isClaimed() {
        return claimed;
    }

    /**
     * @param token  the waiter's fencing token, or 0 when the lock was not handed over
     * @param sentAt when the hand-over was sent, on the lease keeper's clock: where the lease starts
     */
    void settle(long token, long sentAt) {
        this.token = token;
        this.sentAt = sentAt;
        settled = true;
    }

    boolean isSettled() {
        return settled;
    }

    /**
     * Makes a waiter whose hand-over fell through an ordinary waiter again.
     */
    void unclaim() {
        claimed = false;
        settled = false;
        token = 0;
    }

    long token() {
        return token;
    }

    long sentAt() {
        return sentAt;
    }
}
