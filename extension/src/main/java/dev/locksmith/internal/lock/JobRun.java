package dev.locksmith.internal.lock;

import dev.locksmith.LastRun;
import dev.locksmith.internal.wire.RunRecordFormat;
import java.time.Duration;
import java.time.Instant;

/**
 * One run of a job under a lock, as it is recorded in Redis ({@link JobLock#recordRun}): the
 * job's latest run, and one entry of its short list of recent runs.
 *
 * @param job           the job's name: the lock's own, or one named apart from it ({@code @Locked(job = ...)})
 * @param slot          the scheduled time of the firing it ran for, or null when unknown
 * @param startedMillis when it started, epoch ms
 * @param tookMillis    how long it took
 * @param failure       what it threw, or null when it completed
 */
public record JobRun(String job, Instant slot, long startedMillis, long tookMillis, Throwable failure) {
    /** How many runs of a job Redis keeps in its list of recent runs. */
    public static final int RECENT_RUNS = dev.locksmith.JobInfo.RECENT_RUNS;

    /**
     * @return the record as the script stores it ({@link RunRecordFormat})
     */
    String record(long fencingToken, String lockName, String thread, String process) {
        return RunRecordFormat.write(new LastRun(Instant.ofEpochMilli(startedMillis), Duration.ofMillis(tookMillis),
                failure == null ? LastRun.COMPLETED : LastRun.FAILED,
                failure == null ? null : failure.getClass().getName(), process, thread, fencingToken, lockName, slot));
    }
}
