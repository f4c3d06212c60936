package dev.locksmith.internal.lock;

import dev.locksmith.LockLostException;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lock.call.JobLock;
import dev.locksmith.internal.lock.call.JobRun;
import dev.locksmith.internal.lock.kind.ExclusiveKind;
import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.lock.kind.LockKind;
import dev.locksmith.internal.lock.local.Deadline;
import dev.locksmith.internal.lock.local.Waiting;
import dev.locksmith.internal.observe.LockLabel;
import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockScript;
import java.time.Duration;

/**
 * A lock of any {@link LockKind}. The first hold of a thread comes from an {@link Acquisition};
 * further holds of the same thread re-enter; the lease keeper keeps the hold until its last
 * release, which goes the one way every release goes ({@link Release}). The hold count is
 * counted here, by the holder, and copied to Redis for inspection.
 */
final class RedisLock extends LockFacade implements ReleasableByOwner, JobLock {
    private final LockTarget lock;
    private final LockContext context;

    RedisLock(String name, LockKind kind, LockContext context) {
        this(LockTarget.of(name, kind, context), context);
    }

    private RedisLock(LockTarget lock, LockContext context) {
        this.lock = lock;
        this.context = context;
    }

    @Override
    public RedisLock forOneRun(Duration counterLifetime) {
        return new RedisLock(lock.forOneRun(counterLifetime.toMillis()), context);
    }

    @Override
    public String getName() {
        return lock.name();
    }

    @Override
    boolean acquire(Deadline deadline, long leaseMillis, Waiting waiting) throws InterruptedException {
        waiting.checkInterrupt();
        String owner = context.owners().current();
        boolean watchdog = leaseMillis == WATCHDOG;
        long lease = watchdog ? context.leases().watchdogLeaseMillis() : leaseMillis;
        Hold held = currentHold(owner);
        if (held != null) {
            reenter(held, lease);
            return true;
        }
        lock.kind().checkMayAcquire(context.leases(), lock.keys(), owner, lock.name());
        return new Acquisition(lock, owner, lease, watchdog).run(deadline, waiting) != null;
    }

    @Override
    void enterCall() {
        context.state().enter();
    }

    @Override
    void exitCall() {
        context.state().exit();
    }

    @Override
    boolean managerOpen() {
        return context.state().isOpen();
    }

    @Override
    public void unlock() {
        context.state().checkOpen();
        Hold hold = currentHold();
        if (hold == null) {
            throw new IllegalMonitorStateException("The " + describe() + " is not held by thread '"
                    + Thread.currentThread().getName() + "'; only the thread that locked it may unlock it");
        }
        release(hold);
    }

    @Override
    public int release(Hold hold) {
        return Release.send(lock, hold).settle();
    }

    /**
     * Sends the release of one hold without waiting for its answer (a multi-lock's releases share
     * one round trip).
     */
    Release sendRelease(Hold hold) {
        return Release.send(lock, hold);
    }

    /**
     * A first hold asked for together with other locks' (a multi-lock's one-round-trip attempt).
     *
     * @return the attempt to send and settle, or null when this thread holds the lock already
     */
    Acquisition firstAttempt(long leaseMillis) {
        context.state().checkOpen();
        String owner = context.owners().current();
        if (currentHold(owner) != null) {
            return null;
        }
        lock.kind().checkMayAcquire(context.leases(), lock.keys(), owner, lock.name());
        boolean watchdog = leaseMillis == WATCHDOG;
        long lease = watchdog ? context.leases().watchdogLeaseMillis() : leaseMillis;
        return new Acquisition(lock, owner, lease, watchdog);
    }

    @Override
    public void keepAtLeast(Duration minHold) {
        if (!(lock.kind() instanceof ExclusiveKind)) {
            throw new UnsupportedOperationException("The " + describe() + " has no minimum hold; use a reentrant or"
                    + " fair lock");
        }
        Hold hold = currentHold();
        if (hold == null) {
            throw new IllegalMonitorStateException("The " + describe() + " is not held by thread '"
                    + Thread.currentThread().getName() + "', so it cannot be kept");
        }
        hold.keepAtLeast(minHold.toNanos());
    }

    @Override
    public void recordRun(JobRun run) {
        Hold hold = currentHold();
        if (hold != null) {
            lock.awaitConfirmed(hold);
        }
        String record = run.record(hold == null ? -1 : hold.fencingToken(), lock.name(),
                Thread.currentThread().getName(), context.process());
        LockKeys job = LockKeys.of(context.settings().keyPrefix(), run.job());
        context.replies().await(context.store().everywhere(LockScript.call("last-run")
                // The exclusive lock's keys of the job's name, whatever this lock's kind: describe reads them there.
                .key("last-run", job.lastRun()).key("runs", job.recentRuns()).arg("record", record)
                .arg("lifetime", context.settings().fenceLifetime().toMillis()).arg("recent", JobRun.RECENT_RUNS)
                .integer()),
                "Recording the run of job '" + run.job() + "' under the " + describe());
    }

    @Override
    public boolean forceUnlock() {
        context.state().checkOpen();
        LockKeys keys = lock.keys();
        long removed = context.replies().await(context.store().everywhere(LockScript.call("force-release")
                .key("lock", keys.lock()).key("channel", keys.channel()).arg("publish", keys.publish()).integer()),
                "Force-unlocking " + describe());
        context.contention().wakeLine(keys.channel());
        return removed == 1;
    }

    @Override
    public boolean isLocked() {
        context.state().checkOpen();
        Hold own = currentHold();
        if (own != null) {
            lock.awaitConfirmed(own); // until then Redis shows the lock granted, not taken
        }
        return context.replies().await(lock.kind().isLocked(context.store(), lock.keys()), "Reading " + describe());
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return getHoldCount() > 0;
    }

    @Override
    public int getHoldCount() {
        context.state().checkOpen();
        Hold hold = currentHold();
        if (hold == null) {
            return 0;
        }
        lock.awaitConfirmed(hold);
        boolean held = context.replies().await(lock.kind().isHeldBy(context.store(), lock.keys(), hold.owner()),
                "Reading " + describe());
        return held ? hold.count() : 0;
    }

    @Override
    public Duration remainingLease() {
        if (!isLocked()) {
            return Duration.ZERO;
        }
        long millis = context.replies().await(context.store().timeToLive(lock.keys().lock()), "Reading " + describe());
        return millis > 0 ? Duration.ofMillis(millis) : Duration.ZERO;
    }

    @Override
    public long fencingToken() {
        context.state().checkOpen();
        Hold hold = currentHold();
        if (hold == null) {
            throw new IllegalMonitorStateException("The " + describe() + " is not held by thread '"
                    + Thread.currentThread().getName() + "', so it has no fencing token");
        }
        if (hold.isLost()) {
            throw lost(hold, "; its fencing token " + hold.fencingToken() + " is stale");
        }
        if (!hold.isTokenPublished() && context.store().tokensNeedPublishing()) {
            context.replies().await(context.store().publishToken(lock.keys().fence(), hold.fencingToken(),
                    lock.counterLifetimeMillis()), "Publishing the fencing token of " + describe());
            hold.tokenPublished();
        }
        return hold.fencingToken();
    }

    @Override
    public Hold currentHold() {
        return currentHold(context.owners().current());
    }

    @Override
    LockObserver observer() {
        return context.observer();
    }

    @Override
    LockLabel label() {
        return lock.label();
    }

    @Override
    long grantedToken() {
        Hold hold = currentHold();
        return hold == null ? -1 : hold.fencingToken();
    }

    private Hold currentHold(String owner) {
        return context.leases().find(lock.keys().lock(), lock.kind().holdField(owner));
    }

    /**
     * Another hold by its owner. Telling Redis the new count is an absolute write, so a request
     * resent after a lost reply changes nothing; the count here changes only once Redis agreed.
     */
    private void reenter(Hold held, long lease) {
        lock.awaitConfirmed(held);
        if (held.isLost()) {
            context.leases().forget(held);
            throw lost(held, "before it was entered again");
        }
        ScriptCall call = lock.kind().holdCount(lock.keys(), held.owner(), held.count() + 1, lease);
        if (call != null && context.replies().await(context.store().update(call, 0), "Updating ", describe()) == 0) {
            context.leases().forget(held);
            throw lost(held, "before it was entered again: its lease expired or it was force-unlocked");
        }
        held.countIs(held.count() + 1);
    }

    private LockLostException lost(Hold hold, String when) {
        return new LockLostException(hold.name(), "The " + describe() + " (fencing token " + hold.fencingToken()
                + ") was lost " + when + ". Work done since the loss was not protected by the lock.");
    }

    @Override
    String describe() {
        return lock.description();
    }
}
