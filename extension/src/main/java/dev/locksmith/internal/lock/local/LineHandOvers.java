package dev.locksmith.internal.lock.local;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The releasing thread's side of one lock's hand-overs in this process: it claims a sleeping
 * waiter of the line before its release goes to Redis, and settles it with Redis's answer
 * ({@link HandOver} has the protocol). Each call takes the lock's mutex.
 */
public final class LineHandOvers {
    private final ReentrantLock mutex;
    private final WaiterLine line;
    private final ManagerState state;
    private final LongSupplier clock;

    LineHandOvers(ReentrantLock mutex, WaiterLine line, ManagerState state, LongSupplier clock) {
        this.mutex = mutex;
        this.line = line;
        this.state = state;
        this.clock = clock;
    }

    /**
     * Claims a sleeping waiter of the line for a hand-over; the caller must settle it with
     * {@link #handed} or {@link #fellThrough}, whatever happens. Called by the thread that
     * releases the lock's last hold here.
     *
     * @return the claimed waiter, or null when none sleeps in the line, the manager is closing,
     *         or the lock was handed over {@link WaiterLine#HAND_OVERS_IN_A_ROW} times in a row (the
     *         release then goes through Redis)
     */
    public HandOver claimNext() {
        mutex.lock();
        try {
            return state.isOpen() ? line.claimNext(clock.getAsLong()) : null;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return whether a waiter sleeps in the line that {@link #claimNext()} could claim; by the
     *         time it is called, it may not
     */
    public boolean anyoneToHandTo() {
        mutex.lock();
        try {
            return state.isOpen() && line.anyParked();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Settles a claimed waiter: it holds the lock now.
     *
     * @param token  its fencing token
     * @param sentAt when the hand-over was sent, on the lease keeper's clock
     */
    public void handed(HandOver taker, long token, long sentAt) {
        mutex.lock();
        try {
            line.handed(taker, token, sentAt);
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Settles a claimed waiter whose hand-over did not happen, or whose answer never came: it goes
     * back to the front of the line and asks Redis itself.
     *
     * @param uncertain whether Redis may have passed it the lock all the same
     */
    public void fellThrough(HandOver taker, long sentAt, boolean uncertain) {
        mutex.lock();
        try {
            line.fellThrough(taker, sentAt, uncertain);
        } finally {
            mutex.unlock();
        }
    }
}
