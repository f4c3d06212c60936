package dev.locksmith.internal.lock.local;

/**
 * How many threads of one manager sleep, at one moment, waiting for a lock of one name: what an
 * operator asks when a lock seems stuck ("is anybody here waiting for it, and where?"). Read
 * under the mutex of the lock's {@link LocalContention}, from the waiters' own states, so a
 * thread counts from the moment it released that mutex to sleep until it took it back awake.
 *
 * @param inLine      threads parked in the local line of the reentrant lock or the write lock,
 *                    where a release in this process may hand the lock straight to them (the
 *                    first of them also sleeps until Redis wakes it or offers the lock)
 * @param outsideLine threads asleep elsewhere: readers waiting for a release, fair waiters
 *                    waiting for Redis to name them, and waiters a hand-over claimed, waiting for
 *                    its answer
 */
public record SleepingWaiters(int inLine, int outsideLine) {
    /** Nobody sleeps. */
    public static final SleepingWaiters NONE = new SleepingWaiters(0, 0);

    /**
     * @return every thread counted, in the line or outside it
     */
    public int total() {
        return inLine + outsideLine;
    }

    /**
     * @return both counts added up, field by field
     */
    public SleepingWaiters plus(SleepingWaiters other) {
        return new SleepingWaiters(inLine + other.inLine, outsideLine + other.outsideLine);
    }
}
