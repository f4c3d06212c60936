package dev.locksmith.internal.lock;

import java.time.Duration;

/**
 * A lock a scheduled job runs under ({@code @Locked} with a minimum hold or a skip, or
 * {@code callWithLock} with such options): its hold may be kept for a minimum time after the last
 * release, and each run is recorded in Redis for {@code describe}. The reentrant and the fair lock
 * are such locks; the read/write lock is not.
 */
public interface JobLock {

    /**
     * Keeps the current thread's hold, once released, until {@code minHold} after its grant.
     *
     * @param minHold the minimum hold
     * @throws IllegalMonitorStateException if the current thread does not hold the lock
     */
    void keepAtLeast(Duration minHold);

    /**
     * Remembers in Redis how the current thread's run under this lock ended; call it while still
     * holding the lock, so that runs are recorded in the order they held it.
     *
     * @param startedMillis when the run started, epoch ms
     * @param tookMillis    how long it took
     * @param failure       what the run threw, or null when it completed
     * @throws dev.locksmith.LockException if Redis refused or did not answer
     */
    void recordRun(long startedMillis, long tookMillis, Throwable failure);
}
