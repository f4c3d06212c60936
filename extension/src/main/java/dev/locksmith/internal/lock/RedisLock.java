package dev.locksmith.internal.lock;

import dev.locksmith.internal.observe.LockLabel;
import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.LockLostException;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockScript;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * A lock of any {@link LockKind}. The first hold of a thread comes from an {@link Acquisition};
 * further holds of the same thread re-enter; the lease keeper keeps the hold until its last
 * release. The hold count is counted here, by the holder, and copied to Redis for inspection.
 */
final class RedisLock extends LockFacade implements ReleasableByOwner {
    private final String name;
    private final LockKind kind;
    private final LockKeys keys;
    private final LockContext context;
    private final String kindName;
    private final boolean handsOver;
    private final String description;

    RedisLock(String name, LockKind kind, LockContext context) {
        this.name = LockNames.require(name);
        this.kind = kind;
        this.keys = kind.keys(context.settings().keyPrefix(), name).publishingWith(context.store().publishCommand());
        this.context = context;
        this.kindName = kind.metricName();
        this.handsOver = kind.handsOver() && context.store().oneNodeDecides();
        this.description = kind.describe() + " '" + name + "'";
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
        return new Acquisition(name, description, kind, keys, context, owner, lease, watchdog).run(deadline, waiting) != null;
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

    /**
     * Releases one hold. The last hold of an owner goes straight to a thread of this manager
     * waiting for the lock, where one sleeps and the kind allows it; otherwise it is released in
     * Redis.
     */
    @Override
    public int release(Hold hold) {
        boolean othersFirst = false;
        if (handsOver && hold.count() == 1 && !hold.isLost()) {
            LocalContention contention = context.contention().contending(keys.channel());
            if (contention != null) {
                LocalWaiter taker = contention.claimNext();
                if (taker != null) {
                    return handOver(hold, contention, taker);
                }
                othersFirst = contention.othersGoFirst();
            }
        }
        return sendRelease(hold, othersFirst).settle();
    }

    /**
     * Ends {@code hold} by passing the lock to {@code taker} in one round trip, and tells the
     * taker. When the answer does not come, whether Redis passed it is unknown: the taker asks
     * Redis itself then, where an acquisition finds a lock already handed to it.
     */
    private int handOver(Hold hold, LocalContention contention, LocalWaiter taker) {
        AcquireRequest request = taker.request(System.currentTimeMillis(), context.settings().fenceLifetime().toMillis());
        ScriptCall call = kind.handOver(keys, hold.owner(), request, context.owners().nextRequestId(),
                context.settings().commandTimeout().toMillis());
        context.leases().releasing(hold);
        long sentAt = context.leases().now();
        long token;
        try {
            token = context.replies().await(context.store().update(call, -1), "Handing over ", description);
        } catch (RuntimeException e) {
            contention.settle(taker, 0, sentAt);
            context.leases().releaseFailed(hold);
            throw e;
        }
        context.leases().forget(hold);
        if (token < 0) {
            contention.settle(taker, 0, sentAt);
            context.contention().wake(keys.channel());
            throw lost(hold, "before it was released: its lease expired or it was force-unlocked");
        }
        hold.countIs(0);
        context.contention().handedOver();
        contention.settle(taker, token, sentAt);
        return 0;
    }

    /**
     * Sends the release of one hold without waiting for its answer, so that several locks'
     * releases can share one round trip (a multi-lock).
     *
     * @return the pending release; {@link PendingRelease#settle()} completes it
     * @throws LockLostException at once when the hold is known to be lost
     */
    PendingRelease sendRelease(Hold hold) {
        return sendRelease(hold, false);
    }

    private PendingRelease sendRelease(Hold hold, boolean othersFirst) {
        if (hold.isLost()) {
            context.leases().forget(hold);
            throw lost(hold, "before it was released");
        }
        int count = hold.count();
        if (count > 1) {
            ScriptCall call = kind.holdCount(keys, hold.owner(), count - 1, 0);
            return new PendingRelease(hold, call == null ? null : context.store().update(call, 0), false);
        }
        ScriptCall release = kind.release(keys, hold.owner(), context.owners().nextRequestId(),
                context.settings().commandTimeout().toMillis(), othersFirst);
        context.leases().releasing(hold);
        try {
            return new PendingRelease(hold, context.store().update(release, -1), true);
        } catch (RuntimeException e) {
            context.leases().releaseFailed(hold);
            throw e;
        }
    }

    /**
     * One release on its way to Redis.
     */
    final class PendingRelease {
        private final Hold hold;
        private final CompletionStage<Long> answer;
        private final boolean last;

        private PendingRelease(Hold hold, CompletionStage<Long> answer, boolean last) {
            this.hold = hold;
            this.answer = answer;
            this.last = last;
        }

        /**
         * @return the holds of that owner left
         * @throws LockLostException if Redis no longer had the hold
         */
        int settle() {
            if (!last) {
                if (answer != null && context.replies().await(answer, "Updating ", description) == 0) {
                    context.leases().forget(hold);
                    throw lost(hold, "before it was released: its lease expired or it was force-unlocked");
                }
                hold.countIs(hold.count() - 1);
                return hold.count();
            }
            long left;
            try {
                left = context.replies().await(answer, "Releasing ", description);
            } catch (RuntimeException e) {
                context.leases().releaseFailed(hold);
                throw e;
            }
            context.leases().forget(hold);
            if (!kind.queuesInRedis()) {
                // Also after a loss, and after Redis published the release: a waiter here may wait
                // for this holder rather than for Redis, having seen its hold before it was forgotten.
                context.contention().wake(keys.channel());
            }
            if (left < 0) {
                throw lost(hold, "before it was released: its lease expired or it was force-unlocked");
            }
            hold.countIs(0);
            return 0;
        }
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
        kind.checkMayAcquire(context.leases(), keys, owner, name);
        boolean watchdog = leaseMillis == WATCHDOG;
        long lease = watchdog ? context.leases().watchdogLeaseMillis() : leaseMillis;
        return new Acquisition(name, description, kind, keys, context, owner, lease, watchdog);
    }

    @Override
    public boolean forceUnlock() {
        context.state().checkOpen();
        long removed = context.replies().await(context.store().everywhere(LockScript.integer("force-release",
                new String[] {keys.lock(), keys.channel()}, keys.publish())), "Force-unlocking " + describe());
        context.contention().wake(keys.channel());
        return removed == 1;
    }

    @Override
    public boolean isLocked() {
        context.state().checkOpen();
        return context.replies().await(kind.isLocked(context.store(), keys), "Reading " + describe());
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
        boolean held = context.replies().await(kind.isHeldBy(context.store(), keys, hold.owner()),
                "Reading " + describe());
        return held ? hold.count() : 0;
    }

    @Override
    public Duration remainingLease() {
        if (!isLocked()) {
            return Duration.ZERO;
        }
        long millis = context.replies().await(context.store().timeToLive(keys.lock()), "Reading " + describe());
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
            context.replies().await(context.store().publishToken(keys.fence(), hold.fencingToken(),
                    context.settings().fenceLifetime().toMillis()), "Publishing the fencing token of " + describe());
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
        return context.labels().of(name, kindName);
    }

    @Override
    long grantedToken() {
        Hold hold = currentHold();
        return hold == null ? -1 : hold.fencingToken();
    }

    private Hold currentHold(String owner) {
        return context.leases().find(keys.lock(), kind.holdField(owner));
    }

    /**
     * Another hold by its owner. Telling Redis the new count is an absolute write, so a request
     * resent after a lost reply changes nothing; the count here changes only once Redis agreed.
     */
    private void reenter(Hold held, long lease) {
        if (held.isLost()) {
            context.leases().forget(held);
            throw lost(held, "before it was entered again");
        }
        if (!confirmCount(held, held.count() + 1, lease)) {
            throw lost(held, "before it was entered again: its lease expired or it was force-unlocked");
        }
        held.countIs(held.count() + 1);
    }

    /**
     * @return false when Redis no longer has the hold (it is forgotten then)
     */
    private boolean confirmCount(Hold hold, int count, long lease) {
        ScriptCall call = kind.holdCount(keys, hold.owner(), count, lease);
        if (call == null) {
            return true;
        }
        long held = context.replies().await(context.store().update(call, 0), "Updating ", description);
        if (held == 0) {
            context.leases().forget(hold);
            return false;
        }
        return true;
    }

    private LockLostException lost(Hold hold, String when) {
        return new LockLostException(hold.name(), "The " + describe() + " (fencing token " + hold.fencingToken() + ") was lost "
                + when + ". Work done since the loss was not protected by the lock.");
    }

    @Override
    String describe() {
        return description;
    }
}
