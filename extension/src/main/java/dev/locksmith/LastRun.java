package dev.locksmith;

import java.time.Duration;
import java.time.Instant;

/**
 * The latest run of a job under a lock, as Redis remembers it: written by every call that
 * skips when the lock is held or keeps it for a minimum time ({@link Locked#whenHeld()},
 * {@link Locked#minHold()}, {@link CallOptions}), as it ends and before its lock is released.
 * Read with {@link LockManager#describe(String)}, from any process.
 *
 * @param started      when the run started (the lock was granted), by the clock of the process that ran it
 * @param took         how long the run took, from the grant to its end (without the minimum hold)
 * @param outcome      {@code completed}, or {@code failed} when the method threw
 * @param error        the class name of what the method threw, or null when it completed
 * @param process      the process that ran it, as {@code pid 4711 on shop-1, application shop}
 * @param thread       the thread that ran it
 * @param fencingToken the fencing token the run held the lock with
 */
public record LastRun(Instant started, Duration took, String outcome, String error, String process, String thread,
                      long fencingToken) {

    /** The outcome of a run that returned. */
    public static final String COMPLETED = "completed";
    /** The outcome of a run that threw. */
    public static final String FAILED = "failed";

    /**
     * @return when the run ended
     */
    public Instant ended() {
        return started.plus(took);
    }
}
