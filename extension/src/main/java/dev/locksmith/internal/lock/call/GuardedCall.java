package dev.locksmith.internal.lock.call;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.internal.config.Durations;
import dev.locksmith.internal.config.TimeLimits;
import dev.locksmith.internal.observe.CallContext;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Runs an action while holding a lock: the one path behind {@code LockManager.callWithLock} and
 * {@code @Locked}. It acquires within the wait time, runs the action, then releases the lock or
 * hands the release to the current transaction. The action's own exception always wins: a
 * release that fails after it (a lost lock) is attached to it as suppressed. After an action that
 * returned normally, a failed release is thrown, because the work it protected was not protected
 * to the end.
 *
 * <p>A job's call ({@link #minHold} or {@link #skipWhenHeld}) also keeps the lock after its release
 * until the minimum hold since the grant has passed, skips the action when the lock is held
 * elsewhere (logged at DEBUG by the logger {@value #SKIP_LOGGER}), and records each run in Redis
 * before releasing ({@link JobLock}).
 */
public final class GuardedCall {
    /** The logger of skipped jobs, one line per skip at DEBUG (FINE in java.util.logging). */
    public static final String SKIP_LOGGER = "dev.locksmith.skipped";
    private static final Logger SKIPS = System.getLogger(SKIP_LOGGER);
    private static final Logger LOG = System.getLogger(GuardedCall.class.getName());
    /** The shortest life of a per-run name's fencing counter: longer than any acquisition takes. */
    public static final Duration SHORTEST_COUNTER_LIFETIME = Duration.ofSeconds(1);

    private final DistributedLock lock;
    private final Duration waitTime;
    private final Duration leaseTime;
    private final Duration minHold;
    private final boolean skipWhenHeld;
    private final String where;
    private final String template;
    private final String job;
    private final Instant slot;

    /**
     * @param lock      the lock to hold
     * @param waitTime  how long to wait for it
     * @param leaseTime a fixed lease, or null for a watchdog-kept one
     * @param where     names the caller in messages, such as {@code @Locked("stock:{sku}") on Shop#reserve(String sku)};
     *                  null for a plain {@code callWithLock}
     * @param template  names the lock in metrics and spans, such as {@code stock:{sku}}; null to let
     *                  the configured name patterns decide
     */
    public GuardedCall(DistributedLock lock, Duration waitTime, Duration leaseTime, String where, String template) {
        this(lock, waitTime, leaseTime, Duration.ZERO, false, where, template);
    }

    /**
     * @param lock         the lock to hold
     * @param waitTime     how long to wait for it
     * @param leaseTime    a fixed lease, or null for a watchdog-kept one
     * @param minHold      how long after the grant the lock is kept at least; {@link Duration#ZERO} for no minimum
     * @param skipWhenHeld whether a lock not acquired within the wait time skips the action instead of failing
     * @param where        names the caller in messages; null for a plain {@code callWithLock}
     * @param template     names the lock in metrics and spans; null to let the configured name patterns decide
     */
    public GuardedCall(DistributedLock lock, Duration waitTime, Duration leaseTime, Duration minHold,
                       boolean skipWhenHeld, String where, String template) {
        this(lock, waitTime, leaseTime, minHold, skipWhenHeld, where, template, lock.getName(), null);
    }

    private GuardedCall(DistributedLock lock, Duration waitTime, Duration leaseTime, Duration minHold,
                        boolean skipWhenHeld, String where, String template, String job, Instant slot) {
        this.lock = lock;
        this.waitTime = waitTime;
        this.leaseTime = leaseTime;
        this.minHold = minHold;
        this.skipWhenHeld = skipWhenHeld;
        this.where = where;
        this.template = template;
        this.job = job;
        this.slot = slot;
    }

    /**
     * The same call, recording its runs under a job's name and with the slot they ran for. A lock
     * whose name is not the job's is a per-run name (one per slot, say): its fencing counter is
     * seeded to live only {@link #perRunCounterLifetime} instead of the manager's lifetime, since
     * nobody takes that name once its slot is over. Its tokens still increase: a counter that is
     * gone is seeded again from the Redis server's clock in microseconds.
     *
     * @param job  the job's name; the lock's own for a job not named apart
     * @param slot the scheduled time of the firing, or null when unknown
     * @return the call for that job
     */
    public GuardedCall forJob(String job, Instant slot) {
        DistributedLock locked = lock;
        if (!job.equals(lock.getName()) && lock instanceof JobLock jobLock) {
            locked = jobLock.forOneRun(perRunCounterLifetime(minHold));
        }
        return new GuardedCall(locked, waitTime, leaseTime, minHold, skipWhenHeld, where, template, job, slot);
    }

    /**
     * @param minHold a per-run name's minimum hold
     * @return how long its fencing counter lives: the minimum hold, at least {@link #SHORTEST_COUNTER_LIFETIME}
     */
    public static Duration perRunCounterLifetime(Duration minHold) {
        return minHold.compareTo(SHORTEST_COUNTER_LIFETIME) > 0 ? minHold : SHORTEST_COUNTER_LIFETIME;
    }

    /**
     * @return the lock this call holds (a per-run name's own, from {@link #forJob})
     */
    public DistributedLock lock() {
        return lock;
    }

    /**
     * @param deferral decides whether the release waits for the current transaction
     * @param action   what to run while holding the lock
     * @param <T>      what it returns
     * @return what it returned, or null when it was skipped
     * @throws LockTimeoutException  if the lock was not acquired within the wait time, unless skipping
     * @throws InterruptedException  if interrupted while waiting, for a plain {@code callWithLock};
     *                               {@code @Locked} gets a {@link LockException} instead, with
     *                               the interrupt status kept
     * @throws Exception             whatever the action threw
     */
    public <T> T call(UnlockDeferral deferral, Callable<T> action) throws Exception {
        return call(deferral, action, null);
    }

    /**
     * @param deferral    decides whether the release waits for the current transaction
     * @param action      what to run while holding the lock
     * @param whenSkipped what to return when the action is skipped
     * @param <T>         what it returns
     * @return what it returned, or {@code whenSkipped}
     * @throws Exception as {@link #call(UnlockDeferral, Callable)}
     */
    public <T> T call(UnlockDeferral deferral, Callable<T> action, T whenSkipped) throws Exception {
        boolean acquired = CallContext.during(template, skipWhenHeld, this::acquire);
        if (!acquired) {
            SKIPS.log(Level.DEBUG, () -> "Skipped " + (where == null ? "a call" : where) + ": lock '" + lock.getName()
                    + "' is held elsewhere (waited " + Durations.format(waitTime) + ")");
            return whenSkipped;
        }
        JobLock job = isJob() && lock instanceof JobLock jobLock ? jobLock : null;
        long startedMillis = System.currentTimeMillis();
        long startedNanos = System.nanoTime();
        T result;
        try {
            if (job != null && !minHold.isZero()) {
                job.keepAtLeast(minHold);
            }
            result = action.call();
        } catch (Throwable failure) {
            record(job, startedMillis, startedNanos, failure);
            try {
                release(deferral);
            } catch (RuntimeException releaseFailure) {
                failure.addSuppressed(releaseFailure);
            }
            throw failure;
        }
        record(job, startedMillis, startedNanos, null);
        // A lost lock surfaces here (LockLostException): the caller's work was not protected.
        release(deferral);
        return result;
    }

    private boolean isJob() {
        return skipWhenHeld || !minHold.isZero();
    }

    /**
     * The run's record is for operators: a Redis that refuses it must not fail the job, which ran.
     */
    private void record(JobLock job, long startedMillis, long startedNanos, Throwable failure) {
        if (job == null) {
            return;
        }
        try {
            job.recordRun(new JobRun(this.job, slot, startedMillis,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos), failure));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not record the run of job '" + this.job + "' ("
                    + (where == null ? "a call" : where) + ") under lock '" + lock.getName()
                    + "'; describe shows an older run: " + e.getMessage());
        }
    }

    private boolean acquire() throws InterruptedException {
        boolean acquired;
        long waitNanos = TimeLimits.waitNanos(waitTime, "lock '" + lock.getName() + "'");
        try {
            acquired = leaseTime == null
                    ? lock.tryLock(waitNanos, TimeUnit.NANOSECONDS)
                    : lock.tryLock(waitNanos, leaseTime.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            if (where == null) {
                throw e;
            }
            Thread.currentThread().interrupt();
            throw new LockException(lock.getName(), where + ": interrupted while waiting for lock '" + lock.getName() + "'", e);
        } catch (IllegalMonitorStateException e) {
            // A read-to-write upgrade, refused at once by the lock: say which method asked.
            throw where == null ? e : new IllegalMonitorStateException(where + ": " + e.getMessage());
        }
        if (!acquired && !skipWhenHeld) {
            throw new LockTimeoutException(lock.getName(), "Lock '" + lock.getName() + "' was not acquired within "
                    + Durations.format(waitTime) + (where == null ? "" : " (" + where + ")"));
        }
        return acquired;
    }

    private void release(UnlockDeferral deferral) {
        if (!deferral.defer(lock)) {
            lock.unlock();
        }
    }
}
