package dev.locksmith;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link LockManager#callWithLock(String, CallOptions, java.util.concurrent.Callable)} takes,
 * keeps and gives up a lock: the programmatic twin of {@link Locked @Locked}'s attributes, for
 * tasks scheduled by hand (a {@code ManagedScheduledExecutorService}, a plain
 * {@code ScheduledExecutorService}). Immutable; each method returns a changed copy.
 *
 * <pre>{@code
 * CallOptions once = CallOptions.waitingUpTo(Duration.ZERO)   // one attempt
 *         .leaseTime(Duration.ofMinutes(5))                   // the most: freed 5 min after the grant, whatever happens
 *         .minHold(Duration.ofSeconds(30))                    // the least: kept 30 s after the grant, even if done sooner
 *         .skipWhenHeld();                                    // held elsewhere: return null, throw nothing
 * locks.callWithLock("nightly-report", once, () -> report.run());
 * }</pre>
 */
public final class CallOptions {
    private final Duration waitTime;
    private final Duration leaseTime;
    private final Duration minHold;
    private final WhenHeld whenHeld;
    private final String job;

    private CallOptions(Duration waitTime, Duration leaseTime, Duration minHold, WhenHeld whenHeld) {
        this(waitTime, leaseTime, minHold, whenHeld, null);
    }

    private CallOptions(Duration waitTime, Duration leaseTime, Duration minHold, WhenHeld whenHeld, String job) {
        this.waitTime = waitTime;
        this.leaseTime = leaseTime;
        this.minHold = minHold;
        this.whenHeld = whenHeld;
        this.job = job;
        if (leaseTime != null && minHold.compareTo(leaseTime) > 0) {
            throw new IllegalArgumentException("minHold " + minHold + " is longer than leaseTime " + leaseTime
                    + ": the lease is the longest the lock is kept, the minimum hold the shortest. Shorten minHold"
                    + " or lengthen leaseTime");
        }
    }

    /**
     * @param waitTime how long to wait for the lock; {@link Duration#ZERO} makes one attempt
     * @return options with that wait, a watchdog-kept lease, no minimum hold, failing when held
     * @throws IllegalArgumentException if {@code waitTime} is null or negative
     */
    public static CallOptions waitingUpTo(Duration waitTime) {
        if (waitTime == null || waitTime.isNegative()) {
            throw new IllegalArgumentException("waitTime " + waitTime + " is not a wait; use Duration.ZERO for one"
                    + " attempt, or a positive duration");
        }
        return new CallOptions(waitTime, null, Duration.ZERO, WhenHeld.FAIL);
    }

    /**
     * @param leaseTime the longest the lock is kept after its grant (ShedLock's {@code lockAtMostFor}),
     *                  even if the action still runs; null keeps it with the watchdog while the action runs
     * @return changed options
     * @throws IllegalArgumentException if it is not positive, or shorter than the minimum hold
     */
    public CallOptions leaseTime(Duration leaseTime) {
        if (leaseTime != null && (leaseTime.isNegative() || leaseTime.isZero())) {
            throw new IllegalArgumentException("leaseTime " + leaseTime + " is not a lease; use a positive duration,"
                    + " or null for a lease the watchdog keeps");
        }
        return new CallOptions(waitTime, leaseTime, minHold, whenHeld, job);
    }

    /**
     * @param minHold the shortest the lock is kept after its grant (ShedLock's {@code lockAtLeastFor}):
     *                an action that ends sooner leaves the lock taken, by nobody, until then
     * @return changed options
     * @throws IllegalArgumentException if it is null, negative, or longer than a fixed lease
     */
    public CallOptions minHold(Duration minHold) {
        if (minHold == null || minHold.isNegative()) {
            throw new IllegalArgumentException("minHold " + minHold + " is not a duration; use Duration.ZERO for none");
        }
        return new CallOptions(waitTime, leaseTime, minHold, whenHeld, job);
    }

    /**
     * When the lock is not free within the wait time, the action is not run and the call returns
     * null instead of throwing {@link LockTimeoutException}.
     *
     * @return changed options
     */
    public CallOptions skipWhenHeld() {
        return new CallOptions(waitTime, leaseTime, minHold, WhenHeld.SKIP, job);
    }

    /**
     * Names the job apart from its lock: its runs are recorded under {@code job}
     * ({@link LockManager#describeJob(String)}), whatever lock name each ran under, such as one
     * name per slot. A lock whose name differs from its job's is a per-run name, whose fencing
     * counter lives only as long as its slot needs it (the minimum hold, at least 1 s).
     *
     * <pre>{@code
     * Instant slot = ...;   // the scheduled time of this firing
     * locks.callWithLock("interest:" + slot, CallOptions.waitingUpTo(Duration.ZERO)
     *         .minHold(Duration.ofMillis(1_500)).skipWhenHeld().job("interest"), () -> pay());
     * }</pre>
     *
     * @param job the job's name, 1..512 characters, not blank; null to record runs under the lock's name
     * @return changed options
     * @throws IllegalArgumentException if the name is blank or longer than 512 characters
     */
    public CallOptions job(String job) {
        if (job != null && (job.isBlank() || job.length() > 512)) {
            throw new IllegalArgumentException("job '" + job + "' is not a job name; use 1 to 512 characters, not all"
                    + " blank, or null for the lock's own name");
        }
        return new CallOptions(waitTime, leaseTime, minHold, whenHeld, job);
    }

    /**
     * @return the job's name, or null when runs are recorded under the lock's name
     */
    public String job() {
        return job;
    }

    /**
     * @return how long to wait for the lock
     */
    public Duration waitTime() {
        return waitTime;
    }

    /**
     * @return the fixed lease, or null for a watchdog-kept one
     */
    public Duration leaseTime() {
        return leaseTime;
    }

    /**
     * @return the minimum hold, {@link Duration#ZERO} for none
     */
    public Duration minHold() {
        return minHold;
    }

    /**
     * @return what happens when the lock is held elsewhere
     */
    public WhenHeld whenHeld() {
        return whenHeld;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CallOptions that && waitTime.equals(that.waitTime)
                && Objects.equals(leaseTime, that.leaseTime) && minHold.equals(that.minHold) && whenHeld == that.whenHeld
                && Objects.equals(job, that.job);
    }

    @Override
    public int hashCode() {
        return Objects.hash(waitTime, leaseTime, minHold, whenHeld, job);
    }

    @Override
    public String toString() {
        return "CallOptions[waitTime=" + waitTime + ", leaseTime=" + (leaseTime == null ? "watchdog" : leaseTime)
                + ", minHold=" + minHold + ", whenHeld=" + whenHeld + (job == null ? "" : ", job=" + job) + "]";
    }
}
