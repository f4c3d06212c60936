package dev.locksmith.internal.lock.call;

import dev.locksmith.DistributedLock;
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
     * Remembers in Redis how the current thread's run under this lock ended, as the job's latest
     * run and in its short list of recent runs; call it while still holding the lock, so that runs
     * are recorded in the order they held it.
     *
     * @param run the run
     * @throws dev.locksmith.LockException if Redis refused or did not answer
     */
    void recordRun(JobRun run);

    /**
     * @param counterLifetime how long the lock's fencing counter lives from its seeding: a per-run
     *                        name (one per slot) needs its counter only while its slot is taken
     * @return the same lock, seeding its counter with that lifetime
     */
    DistributedLock forOneRun(Duration counterLifetime);
}
