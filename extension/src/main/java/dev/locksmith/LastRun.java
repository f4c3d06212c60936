package dev.locksmith;

import java.time.Duration;
import java.time.Instant;

/**
 * One run of a job under a lock, as Redis remembers it: written by every call that skips when the
 * lock is held or keeps it for a minimum time ({@link Locked#whenHeld()}, {@link Locked#minHold()},
 * {@link CallOptions}), as it ends and before its lock is released, under the job's name
 * ({@link Locked#job()}, {@link CallOptions#job(String)}; the lock's own by default). Read the
 * latest with {@link LockManager#describe(String)} and the recent ones with
 * {@link LockManager#describeJob(String)}, from any process.
 *
 * @param started      when the run started (the lock was granted), by the clock of the process that ran it
 * @param took         how long the run took, from the grant to its end (without the minimum hold)
 * @param outcome      {@code completed}, or {@code failed} when the method threw
 * @param error        the class name of what the method threw, or null when it completed
 * @param process      the process that ran it, as {@code pid 4711 on shop-1, application shop}
 * @param thread       the thread that ran it
 * @param fencingToken the fencing token the run held the lock with
 * @param lock         the name of the lock the run held, such as {@code interest:2026-03-01T10:00:02Z}
 *                     for a per-slot name; null in a record written by an older version
 * @param slot         the scheduled time of the firing the run was for ({@code {slot}}), or null
 *                     when the lock's name has no {@code {slot}}
 */
public record LastRun(Instant started, Duration took, String outcome, String error, String process, String thread,
                      long fencingToken, String lock, Instant slot) {

    /** The outcome of a run that returned. */
    public static final String COMPLETED = "completed";
    /** The outcome of a run that threw. */
    public static final String FAILED = "failed";

    /**
     * A run whose lock and slot are not known (a record written by an older version).
     *
     * @param started      when the run started
     * @param took         how long it took
     * @param outcome      {@link #COMPLETED} or {@link #FAILED}
     * @param error        what it threw, or null
     * @param process      the process that ran it
     * @param thread       the thread that ran it
     * @param fencingToken its fencing token
     */
    public LastRun(Instant started, Duration took, String outcome, String error, String process, String thread,
                   long fencingToken) {
        this(started, took, outcome, error, process, thread, fencingToken, null, null);
    }

    /**
     * @return when the run ended
     */
    public Instant ended() {
        return started.plus(took);
    }
}
