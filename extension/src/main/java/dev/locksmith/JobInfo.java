package dev.locksmith;

import java.util.List;
import java.util.Optional;

/**
 * What Redis remembers of one job's runs, whatever lock names (one per slot, say) ran them: the
 * answer to "when did the interest job last run, where, and how did it end?". See
 * {@link LockManager#describeJob(String)}.
 *
 * @param job        the job's name ({@link Locked#job()}, {@link CallOptions#job(String)}, or the
 *                   lock's name for a job not named apart)
 * @param lastRun    its latest run, while Redis remembers it
 * @param recentRuns its recent runs, newest first, at most {@link #RECENT_RUNS}: each with the
 *                   server ({@link LastRun#process()}), the outcome, the duration and the slot
 */
public record JobInfo(String job, Optional<LastRun> lastRun, List<LastRun> recentRuns) {
    /** How many recent runs of a job Redis keeps. */
    public static final int RECENT_RUNS = 10;

    /**
     * @param job        the job's name
     * @param lastRun    its latest run
     * @param recentRuns its recent runs, newest first
     */
    public JobInfo {
        lastRun = lastRun == null ? Optional.empty() : lastRun;
        recentRuns = List.copyOf(recentRuns);
    }
}
