package dev.locksmith.internal.lock;

import dev.locksmith.LockLostException;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.ScriptCall;
import java.time.Duration;

/**
 * A lock of any {@link LockKind}: a Redis hash of hold counts with a server-side lease. The
 * first hold of a thread comes from an {@link Acquisition}; further holds of the same thread
 * re-enter, and the lease keeper keeps the hold until its last release.
 */
final class RedisLock extends LockFacade implements ReleasableByOwner {
    private static final LuaScript REENTER = LuaScript.load("reenter");
    private static final LuaScript FORCE_RELEASE = LuaScript.load("force-release");

    private final String name;
    private final LockKind kind;
    private final LockKeys keys;
    private final LockContext context;

    RedisLock(String name, LockKind kind, LockContext context) {
        this.name = LockNames.require(name);
        this.kind = kind;
        this.keys = kind.keys(context.settings().keyPrefix(), name).publishingWith(context.store().publishCommand());
        this.context = context;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    boolean acquire(Deadline deadline, long leaseMillis, Waiting waiting) throws InterruptedException {
        context.state().checkOpen();
        waiting.checkInterrupt();
        String owner = context.owners().current();
        boolean watchdog = leaseMillis == WATCHDOG;
        long lease = watchdog ? context.leases().watchdogLeaseMillis() : leaseMillis;
        Hold held = currentHold(owner);
        if (held != null) {
            reenter(held, lease);
            return true;
        }
        kind.checkMayAcquire(context.leases(), keys, owner, name);
        return new Acquisition(name, kind, keys, context, owner, lease, watchdog).run(deadline, waiting) != null;
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
        if (hold.isLost()) {
            context.leases().forget(hold);
            throw lost(hold, "before it was released");
        }
        String latchKey = keys.latchPrefix() + context.owners().nextRequestId();
        ScriptCall release = kind.release(keys, hold.owner(), hold.leaseMillis(), latchKey,
                context.settings().commandTimeout().toMillis());
        context.leases().releasing(hold);
        long left;
        try {
            left = context.replies().await(context.store().update(release, -1), "Releasing " + describe());
        } catch (RuntimeException e) {
            context.leases().releaseFailed(hold);
            throw e;
        }
        if (left < 0) {
            context.leases().forget(hold);
            throw lost(hold, "before it was released: its lease expired or it was force-unlocked");
        }
        if (left == 0) {
            context.leases().forget(hold);
            if (!kind.queuesInRedis()) {
                context.contention().wake(keys.channel());
            }
        } else {
            context.leases().releaseFailed(hold);
        }
        return (int) left;
    }

    @Override
    public boolean forceUnlock() {
        context.state().checkOpen();
        long removed = context.replies().await(context.store().everywhere(ScriptCall.integer(FORCE_RELEASE,
                new String[] {keys.hash(), keys.channel()}, keys.publish())), "Force-unlocking " + describe());
        context.contention().wake(keys.channel());
        return removed == 1;
    }

    @Override
    public boolean isLocked() {
        context.state().checkOpen();
        return kind.isLockedBy(context.replies().await(context.store().hashFields(keys.hash()), "Reading " + describe()));
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return getHoldCount() > 0;
    }

    @Override
    public int getHoldCount() {
        context.state().checkOpen();
        String count = context.replies().await(context.store().hashField(keys.hash(),
                kind.holdField(context.owners().current())), "Reading " + describe());
        return count == null ? 0 : Integer.parseInt(count);
    }

    @Override
    public Duration remainingLease() {
        if (!isLocked()) {
            return Duration.ZERO;
        }
        long millis = context.replies().await(context.store().timeToLive(keys.hash()), "Reading " + describe());
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
        return hold.fencingToken();
    }

    @Override
    public Hold currentHold() {
        return currentHold(context.owners().current());
    }

    private Hold currentHold(String owner) {
        return context.leases().find(keys.hash(), kind.holdField(owner));
    }

    private void reenter(Hold held, long lease) {
        if (held.isLost()) {
            context.leases().forget(held);
            throw lost(held, "before it was entered again");
        }
        long count = context.replies().await(context.store().update(ScriptCall.integer(REENTER,
                new String[] {keys.hash()}, held.field(), Long.toString(lease), held.expiryField()), 0),
                "Re-entering " + describe());
        if (count == 0) {
            context.leases().forget(held);
            throw lost(held, "before it was entered again: its lease expired or it was force-unlocked");
        }
    }

    private LockLostException lost(Hold hold, String when) {
        return new LockLostException("The " + describe() + " (fencing token " + hold.fencingToken() + ") was lost "
                + when + ". Work done since the loss was not protected by the lock.");
    }

    @Override
    String describe() {
        return kind.describe() + " '" + name + "'";
    }
}
