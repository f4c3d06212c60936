package dev.locksmith.internal.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockLostException;
import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.ScriptCall;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.function.LongSupplier;

/**
 * A lock of any {@link LockKind}: a Redis hash of hold counts with a server-side lease. Waiting
 * never polls: a waiter sleeps until a release is published or the holder's lease runs out.
 * For most kinds one thread per process contends in Redis at a time (see
 * {@link LocalContention}); fair-lock waiters each keep their own place in the Redis queue.
 */
public final class RedisLock implements DistributedLock, ReleasableByOwner {
    private static final LuaScript REENTER = LuaScript.load("reenter");
    private static final LuaScript FORCE_RELEASE = LuaScript.load("force-release");
    private static final long WATCHDOG = -1;
    private static final long ACQUIRED = Long.MIN_VALUE;
    private static final long RETRY_AFTER_FAILURE_MILLIS = 100;

    private final String name;
    private final LockKind kind;
    private final LockKeys keys;
    private final LockRuntime runtime;

    RedisLock(String name, LockKind kind, LockRuntime runtime) {
        this.name = LockNames.require(name);
        this.kind = kind;
        this.keys = kind.keys(runtime.settings().keyPrefix(), name).publishingWith(runtime.store().publishCommand());
        this.runtime = runtime;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public void lock() {
        acquireUninterruptibly(WATCHDOG);
    }

    @Override
    public void lock(long leaseTime, TimeUnit unit) {
        acquireUninterruptibly(leaseMillis(leaseTime, unit, false));
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquire(Deadline.never(), WATCHDOG, Waiting.INTERRUPTIBLE);
    }

    @Override
    public boolean tryLock() {
        try {
            return acquire(Deadline.in(0), WATCHDOG, Waiting.INTERRUPTIBLE);
        } catch (InterruptedException e) {
            // One attempt never waits, so an interrupt here is one the caller already had: keep it.
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public boolean tryLock(long waitTime, TimeUnit unit) throws InterruptedException {
        return acquire(Deadline.in(waitNanos(waitTime, unit)), WATCHDOG, Waiting.INTERRUPTIBLE);
    }

    @Override
    public boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        long lease = leaseMillis(leaseTime, unit, true);
        return acquire(Deadline.in(waitNanos(waitTime, unit)), lease, Waiting.INTERRUPTIBLE);
    }

    @Override
    public void unlock() {
        runtime.checkOpen();
        Hold hold = currentHold();
        if (hold == null) {
            throw new IllegalMonitorStateException("The " + kind.describe() + " '" + name + "' is not held by thread '"
                    + Thread.currentThread().getName() + "'; only the thread that locked it may unlock it");
        }
        release(hold);
    }

    /**
     * Releases one hold by its recorded owner, whichever thread calls: a transaction may complete
     * on another thread than the one that locked.
     *
     * @param hold a hold of this lock
     * @return the holds left
     * @throws LockLostException if Redis no longer had the hold
     */
    public int release(Hold hold) {
        if (hold.isLost()) {
            forget(hold);
            throw lost(hold, "before it was released");
        }
        String latchKey = keys.latchPrefix() + runtime.owners().nextRequestId();
        long left = runtime.await(runtime.store().update(kind.release(keys, hold.owner(), hold.leaseMillis(), latchKey,
                runtime.settings().commandTimeout().toMillis()), -1), "Releasing " + describe());
        if (left < 0) {
            forget(hold);
            throw lost(hold, "before it was released: its lease expired or it was force-unlocked");
        }
        if (left == 0) {
            forget(hold);
            if (!kind.queuesInRedis()) {
                runtime.contention().wake(keys.channel());
            }
        }
        return (int) left;
    }

    @Override
    public boolean forceUnlock() {
        runtime.checkOpen();
        long removed = runtime.await(runtime.store().everywhere(ScriptCall.integer(FORCE_RELEASE,
                new String[] {keys.hash(), keys.channel()}, keys.publish())), "Force-unlocking " + describe());
        runtime.contention().wake(keys.channel());
        return removed == 1;
    }

    @Override
    public boolean isLocked() {
        runtime.checkOpen();
        return kind.isLockedBy(runtime.await(runtime.store().hashFields(keys.hash()), "Reading " + describe()));
    }

    @Override
    public boolean isHeldByCurrentThread() {
        runtime.checkOpen();
        return getHoldCount() > 0;
    }

    @Override
    public int getHoldCount() {
        runtime.checkOpen();
        String count = runtime.await(runtime.store().hashField(keys.hash(), kind.holdField(runtime.owners().current())),
                "Reading " + describe());
        return count == null ? 0 : Integer.parseInt(count);
    }

    @Override
    public Duration remainingLease() {
        if (!isLocked()) {
            return Duration.ZERO;
        }
        long millis = runtime.await(runtime.store().timeToLive(keys.hash()), "Reading " + describe());
        return millis > 0 ? Duration.ofMillis(millis) : Duration.ZERO;
    }

    @Override
    public long fencingToken() {
        runtime.checkOpen();
        Hold hold = currentHold();
        if (hold == null) {
            throw new IllegalMonitorStateException("The " + kind.describe() + " '" + name + "' is not held by thread '"
                    + Thread.currentThread().getName() + "', so it has no fencing token");
        }
        if (hold.isLost()) {
            throw lost(hold, "; its fencing token " + hold.fencingToken() + " is stale");
        }
        return hold.fencingToken();
    }

    /**
     * @return the current thread's hold, or null; for the transaction support
     */
    public Hold currentHold() {
        return runtime.holds().get(keys.hash(), kind.holdField(runtime.owners().current()));
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("Distributed locks have no conditions; the " + kind.describe() + " '"
                + name + "' cannot create one. Use a queue or pub/sub to signal between processes.");
    }

    private void acquireUninterruptibly(long leaseMillis) {
        try {
            acquire(Deadline.never(), leaseMillis, Waiting.uninterruptible());
        } catch (InterruptedException e) {
            throw new IllegalStateException("An uninterruptible wait was interrupted", e);
        }
    }

    private boolean acquire(Deadline deadline, long leaseMillis, Waiting waiting) throws InterruptedException {
        runtime.checkOpen();
        waiting.checkInterrupt();
        String owner = runtime.owners().current();
        boolean watchdog = leaseMillis == WATCHDOG;
        long lease = watchdog ? runtime.settings().leaseMillis() : leaseMillis;
        Hold held = runtime.holds().get(keys.hash(), kind.holdField(owner));
        if (held != null) {
            reenter(held, lease);
            return true;
        }
        kind.checkMayAcquire(runtime.holds(), keys, owner, name);
        LocalContention contention = runtime.contention().enter(keys.channel());
        try {
            if (kind.queuesInRedis()) {
                return awaitTurnInQueue(contention, owner, lease, watchdog, deadline, waiting);
            }
            if (!contention.enterGate(deadline, waiting)) {
                return false;
            }
            boolean acquired = false;
            try {
                acquired = contend(contention, owner, lease, watchdog, deadline, waiting);
                return acquired;
            } finally {
                contention.leaveGate();
                if (!acquired && kind.leavesTracesWhileWaiting()) {
                    giveUp(owner);
                }
            }
        } finally {
            runtime.contention().leave(contention);
            waiting.finish();
        }
    }

    private boolean contend(LocalContention contention, String owner, long lease, boolean watchdog,
                            Deadline deadline, Waiting waiting) throws InterruptedException {
        Attempts attempts = new Attempts(deadline);
        boolean listening = false;
        while (true) {
            runtime.checkOpen();
            long seen = contention.wakeUps();
            long busyForMillis = attempts.run(() -> tryAcquire(owner, lease, watchdog));
            if (busyForMillis == ACQUIRED) {
                return true;
            }
            if (!listening && attempts.lastSucceeded() && !deadline.hasPassed()) {
                // Subscribe, then try again at once: a release published before the subscription
                // was confirmed would otherwise be missed and the wait would last a whole lease.
                long subscribed = attempts.run(() -> listenForReleases(contention));
                if (subscribed == 0) {
                    listening = true;
                    continue;
                }
                busyForMillis = subscribed;
            }
            if (deadline.hasPassed()) {
                return attempts.endOfWait();
            }
            waiting.checkInterrupt();
            contention.awaitWakeUp(seen, waitNanos(deadline, busyForMillis, lease), waiting);
        }
    }

    private boolean awaitTurnInQueue(LocalContention contention, String owner, long lease, boolean watchdog,
                                     Deadline deadline, Waiting waiting) throws InterruptedException {
        contention.joinQueue(owner);
        boolean acquired = false;
        try {
            listenForReleases(contention);
            Attempts attempts = new Attempts(deadline);
            while (true) {
                runtime.checkOpen();
                long seen = contention.generalWakeUps();
                long busyForMillis = attempts.run(() -> tryAcquire(owner, lease, watchdog));
                if (busyForMillis == ACQUIRED) {
                    acquired = true;
                    return true;
                }
                if (deadline.hasPassed()) {
                    return attempts.endOfWait();
                }
                waiting.checkInterrupt();
                // Ask again before the place in the queue lapses, so that only dead waiters lose theirs.
                long nanos = Math.min(waitNanos(deadline, busyForMillis, lease), TimeUnit.MILLISECONDS.toNanos(lease / 3));
                contention.awaitTurn(owner, seen, nanos, waiting);
            }
        } finally {
            contention.leaveQueue(owner);
            if (!acquired) {
                giveUp(owner);
            }
        }
    }

    /**
     * The attempts of one wait. A round trip that fails while time is left (Redis restarting, a
     * failover, a network blip) is asked again shortly instead of ending the wait; the failure is
     * thrown only if the wait ends on it.
     */
    private final class Attempts {
        private final Deadline deadline;
        private LockException failure;

        Attempts(Deadline deadline) {
            this.deadline = deadline;
        }

        /**
         * @return what the attempt answered, or {@link #RETRY_AFTER_FAILURE_MILLIS} when it failed
         *         with time left
         * @throws LockException when it failed and the wait is over
         */
        long run(LongSupplier attempt) {
            try {
                long answer = attempt.getAsLong();
                failure = null;
                return answer;
            } catch (LockException e) {
                if (deadline.hasPassed()) {
                    throw e;
                }
                if (failure == null) {
                    runtime.log().log(System.Logger.Level.WARNING, "Waiting for " + describe() + ": Redis did not"
                            + " answer (" + e.getMessage() + "); asking again every " + RETRY_AFTER_FAILURE_MILLIS
                            + " ms while the wait lasts");
                }
                failure = e;
                return RETRY_AFTER_FAILURE_MILLIS;
            }
        }

        boolean lastSucceeded() {
            return failure == null;
        }

        /**
         * @return false: the lock was not acquired in time
         * @throws LockException when the wait ended on a failed round trip, not on a busy lock
         */
        boolean endOfWait() {
            if (failure != null) {
                throw failure;
            }
            return false;
        }
    }

    private void giveUp(String owner) {
        try {
            runtime.await(runtime.store().everywhere(kind.giveUp(keys, owner)), "Giving up waiting for " + describe());
        } catch (LockException e) {
            // Not fatal: the mark lapses by itself within one lease. The caller's own outcome
            // (timeout, interrupt, the first failure) is what it must hear about.
            runtime.log().log(System.Logger.Level.WARNING, "Could not withdraw from waiting for " + describe()
                    + "; the mark lapses within one lease", e);
        }
    }

    /**
     * @param busyForMillis the holder's remaining lease: 0 means it is running out right now, so
     *                      ask again almost at once; negative means Redis knows no expiry, so only
     *                      a release message (or a lease's time) ends the wait
     */
    private long waitNanos(Deadline deadline, long busyForMillis, long lease) {
        long busyFor = busyForMillis < 0 ? lease : Math.max(1, busyForMillis);
        return Math.min(deadline.remainingNanos(), TimeUnit.MILLISECONDS.toNanos(busyFor));
    }

    /**
     * @return 0, so that it can run as an attempt
     */
    private long listenForReleases(LocalContention contention) {
        runtime.await(contention.listen(runtime.store().channels()), "Subscribing to releases of " + describe());
        return 0;
    }

    /**
     * @return {@link #ACQUIRED} when acquired, otherwise how long until the lock may be free, in ms
     *         (negative when Redis knows no expiry)
     */
    private long tryAcquire(String owner, long lease, boolean watchdog) {
        List<Long> answer;
        try {
            answer = runtime.await(runtime.store().acquire(kind.acquisition(keys, owner, lease, lease),
                    LockRuntime.releaseAll(keys, kind.holdField(owner), kind.expiryField(owner)), lease),
                    "Acquiring " + describe());
        } catch (LockException e) {
            runtime.abandon(keys, kind.holdField(owner), kind.expiryField(owner));
            throw e;
        }
        if (answer.get(0) == 0L) {
            return answer.get(1);
        }
        Hold hold = new Hold(name, keys, owner, kind.holdField(owner), kind.expiryField(owner), answer.get(1), lease,
                watchdog);
        awaitReplicas(hold);
        runtime.holds().put(hold);
        if (watchdog) {
            runtime.renewer().track(hold);
        }
        return ACQUIRED;
    }

    private void awaitReplicas(Hold hold) {
        int wanted = runtime.settings().syncReplicas();
        if (wanted == 0) {
            return;
        }
        long timeout = runtime.settings().syncTimeout().toMillis();
        long acknowledged;
        try {
            acknowledged = runtime.await(runtime.store().awaitReplicas(wanted, timeout),
                    "Waiting for replicas to copy " + describe());
        } catch (LockException e) {
            runtime.abandon(keys, hold.field(), hold.expiryField());
            throw e;
        }
        if (acknowledged < wanted) {
            runtime.abandon(keys, hold.field(), hold.expiryField());
            throw new LockException("The " + describe() + " was acquired on the master but only " + acknowledged
                    + " of " + wanted + " replica(s) confirmed it within " + timeout + " ms, so it was released again."
                    + " Check the replicas, or lower locksmith.redis.sync-replicas / raise sync-timeout.");
        }
    }

    private void reenter(Hold held, long lease) {
        if (held.isLost()) {
            forget(held);
            throw lost(held, "before it was entered again");
        }
        long count = runtime.await(runtime.store().update(ScriptCall.integer(REENTER, new String[] {keys.hash()},
                held.field(), Long.toString(lease), held.expiryField()), 0), "Re-entering " + describe());
        if (count == 0) {
            forget(held);
            throw lost(held, "before it was entered again: its lease expired or it was force-unlocked");
        }
    }

    private void forget(Hold hold) {
        runtime.holds().remove(hold);
        runtime.renewer().untrack(hold);
    }

    private LockLostException lost(Hold hold, String when) {
        return new LockLostException("The " + kind.describe() + " '" + name + "' (fencing token " + hold.fencingToken()
                + ") was lost " + when + ". Work done since the loss was not protected by the lock.");
    }

    private String describe() {
        return kind.describe() + " '" + name + "'";
    }

    private long waitNanos(long waitTime, TimeUnit unit) {
        requireUnit(unit);
        return unit.toNanos(waitTime);
    }

    private long leaseMillis(long leaseTime, TimeUnit unit, boolean watchdogAllowed) {
        requireUnit(unit);
        if (watchdogAllowed && leaseTime == -1) {
            return WATCHDOG;
        }
        long millis = unit.toMillis(leaseTime);
        if (leaseTime <= 0 || millis <= 0) {
            throw new IllegalArgumentException("Lease time " + leaseTime + " " + unit + " for " + describe()
                    + " is not a positive number of milliseconds" + (watchdogAllowed ? "; use -1 for a watchdog lease" : ""));
        }
        return millis;
    }

    private void requireUnit(TimeUnit unit) {
        if (unit == null) {
            throw new IllegalArgumentException("Time unit for " + describe() + " is null; pass a TimeUnit such as SECONDS");
        }
    }

    @Override
    public String toString() {
        return "DistributedLock[" + kind.describe() + " " + name + "]";
    }
}
