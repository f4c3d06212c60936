package dev.locksmith.internal.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockLostException;
import dev.locksmith.internal.redis.LuaScript;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * The reentrant, non-fair lock: a Redis hash of owner id to hold count with a server-side lease.
 * One thread per process contends in Redis at a time (see {@link LocalContention}); it sleeps
 * until a release is published or the holder's lease runs out, never in a polling loop.
 */
public final class RedisReentrantLock implements DistributedLock, ReleasableByOwner {
    private static final LuaScript ACQUIRE = LuaScript.load("acquire");
    private static final LuaScript REENTER = LuaScript.load("reenter");
    private static final LuaScript RELEASE = LuaScript.load("release");
    private static final LuaScript FORCE_RELEASE = LuaScript.load("force-release");
    private static final long WATCHDOG = -1;

    private final String name;
    private final LockKeys keys;
    private final LockRuntime runtime;

    /**
     * @param name    a valid lock name
     * @param runtime what the locks of the manager share
     */
    public RedisReentrantLock(String name, LockRuntime runtime) {
        this.name = LockNames.require(name);
        this.keys = LockKeys.of(runtime.settings().keyPrefix(), name);
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
        String owner = runtime.owners().current();
        Hold hold = runtime.holds().get(name, owner);
        if (hold == null) {
            throw new IllegalMonitorStateException("Lock '" + name + "' is not held by thread '"
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
        String[] scriptKeys = {keys.hash(), keys.channel(), keys.latchPrefix() + runtime.owners().nextRequestId()};
        long left = runtime.<Long>await(runtime.scripts().run(RELEASE, ScriptOutputType.INTEGER, scriptKeys,
                hold.owner(), Long.toString(hold.leaseMillis()),
                Long.toString(runtime.settings().commandTimeout().toMillis())), "Releasing lock '" + name + "'");
        if (left < 0) {
            forget(hold);
            throw lost(hold, "before it was released: its lease expired or it was force-unlocked");
        }
        if (left == 0) {
            forget(hold);
            runtime.contention().wake(name);
        } else {
            hold.setCount((int) left);
        }
        return (int) left;
    }

    @Override
    public boolean forceUnlock() {
        runtime.checkOpen();
        long removed = runtime.<Long>await(runtime.scripts().run(FORCE_RELEASE, ScriptOutputType.INTEGER,
                new String[] {keys.hash(), keys.channel()}), "Force-unlocking lock '" + name + "'");
        runtime.contention().wake(name);
        return removed == 1;
    }

    @Override
    public boolean isLocked() {
        runtime.checkOpen();
        return runtime.await(runtime.redis().commands().exists(keys.hash()), "Reading lock '" + name + "'") > 0;
    }

    @Override
    public boolean isHeldByCurrentThread() {
        runtime.checkOpen();
        return runtime.await(runtime.redis().commands().hexists(keys.hash(), runtime.owners().current()),
                "Reading lock '" + name + "'");
    }

    @Override
    public int getHoldCount() {
        runtime.checkOpen();
        String count = runtime.await(runtime.redis().commands().hget(keys.hash(), runtime.owners().current()),
                "Reading lock '" + name + "'");
        return count == null ? 0 : Integer.parseInt(count);
    }

    @Override
    public Duration remainingLease() {
        runtime.checkOpen();
        long millis = runtime.await(runtime.redis().commands().pttl(keys.hash()), "Reading lock '" + name + "'");
        return millis > 0 ? Duration.ofMillis(millis) : Duration.ZERO;
    }

    @Override
    public long fencingToken() {
        runtime.checkOpen();
        Hold hold = runtime.holds().get(name, runtime.owners().current());
        if (hold == null) {
            throw new IllegalMonitorStateException("Lock '" + name + "' is not held by thread '"
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
        return runtime.holds().get(name, runtime.owners().current());
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("Distributed locks have no conditions; lock '" + name
                + "' cannot create one. Use a queue or pub/sub to signal between processes.");
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
        Hold held = runtime.holds().get(name, owner);
        if (held != null) {
            reenter(held, lease);
            return true;
        }
        LocalContention contention = runtime.contention().enter(name);
        try {
            if (!contention.enterGate(deadline, waiting)) {
                return false;
            }
            try {
                return contend(contention, owner, lease, watchdog, deadline, waiting);
            } finally {
                contention.leaveGate();
            }
        } finally {
            runtime.contention().leave(contention);
            waiting.finish();
        }
    }

    private boolean contend(LocalContention contention, String owner, long lease, boolean watchdog,
                            Deadline deadline, Waiting waiting) throws InterruptedException {
        boolean listening = false;
        while (true) {
            runtime.checkOpen();
            long seen = contention.wakeUps();
            long busyForMillis = tryAcquire(owner, lease, watchdog);
            if (busyForMillis < 0) {
                return true;
            }
            if (deadline.hasPassed()) {
                return false;
            }
            waiting.checkInterrupt();
            if (!listening) {
                // Subscribe, then try again at once: a release published before the subscription
                // was confirmed would otherwise be missed and the wait would last a whole lease.
                listenForReleases(contention, deadline);
                listening = true;
                continue;
            }
            long waitNanos = Math.min(deadline.remainingNanos(), TimeUnit.MILLISECONDS.toNanos(busyForMillis));
            contention.awaitWakeUp(seen, waitNanos, waiting);
        }
    }

    private void listenForReleases(LocalContention contention, Deadline deadline) {
        runtime.await(contention.listen(runtime.channels(), keys.channel()),
                "Subscribing to releases of lock '" + name + "'");
    }

    /**
     * @return -1 when acquired, otherwise how long the current holder's lease has left in ms
     */
    private long tryAcquire(String owner, long lease, boolean watchdog) {
        List<Long> answer;
        try {
            answer = runtime.await(runtime.scripts().run(ACQUIRE, ScriptOutputType.MULTI,
                    new String[] {keys.hash(), keys.fence()}, owner, Long.toString(lease)),
                    "Acquiring lock '" + name + "'");
        } catch (LockException e) {
            runtime.abandon(keys, owner);
            throw e;
        }
        if (answer.get(0) == 0L) {
            return Math.max(0, answer.get(1));
        }
        Hold hold = new Hold(name, keys, owner, answer.get(1), lease, watchdog);
        awaitReplicas(hold);
        runtime.holds().put(hold);
        if (watchdog) {
            runtime.renewer().track(hold);
        }
        return -1;
    }

    private void awaitReplicas(Hold hold) {
        int wanted = runtime.settings().syncReplicas();
        if (wanted == 0) {
            return;
        }
        long timeout = runtime.settings().syncTimeout().toMillis();
        long acknowledged;
        try {
            acknowledged = runtime.await(runtime.redis().commands().waitForReplication(wanted, timeout),
                    "Waiting for replicas to copy lock '" + name + "'");
        } catch (LockException e) {
            runtime.abandon(keys, hold.owner());
            throw e;
        }
        if (acknowledged < wanted) {
            runtime.abandon(keys, hold.owner());
            throw new LockException("Lock '" + name + "' was acquired on the master but only " + acknowledged
                    + " of " + wanted + " replica(s) confirmed it within " + timeout + " ms, so it was released again."
                    + " Check the replicas, or lower locksmith.redis.sync-replicas / raise sync-timeout.");
        }
    }

    private void reenter(Hold held, long lease) {
        if (held.isLost()) {
            forget(held);
            throw lost(held, "before it was entered again");
        }
        long count = runtime.<Long>await(runtime.scripts().run(REENTER, ScriptOutputType.INTEGER,
                new String[] {keys.hash()}, held.owner(), Long.toString(lease)), "Re-entering lock '" + name + "'");
        if (count == 0) {
            forget(held);
            throw lost(held, "before it was entered again: its lease expired or it was force-unlocked");
        }
        held.setCount((int) count);
    }

    private void forget(Hold hold) {
        runtime.holds().remove(hold);
        runtime.renewer().untrack(hold);
    }

    private static LockLostException lost(Hold hold, String when) {
        return new LockLostException("Lock '" + hold.name() + "' (fencing token " + hold.fencingToken()
                + ") was lost " + when + ". Work done since the loss was not protected by the lock.");
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
            throw new IllegalArgumentException("Lease time " + leaseTime + " " + unit + " for lock '" + name
                    + "' is not a positive number of milliseconds" + (watchdogAllowed ? "; use -1 for a watchdog lease" : ""));
        }
        return millis;
    }

    private void requireUnit(TimeUnit unit) {
        if (unit == null) {
            throw new IllegalArgumentException("Time unit for lock '" + name + "' is null; pass a TimeUnit such as SECONDS");
        }
    }

    @Override
    public String toString() {
        return "DistributedLock[" + name + "]";
    }
}
