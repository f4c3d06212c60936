package dev.locksmith.internal.lock.kind;

import dev.locksmith.internal.lease.LeaseKeeper;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockStore;
import java.util.concurrent.CompletionStage;

/**
 * What differs between the kinds of lock: the operations that acquire and release, how a hold
 * is named in Redis, how waiters queue, and how Redis tells whether the lock is held.
 * Everything else (re-entry, leases, waiting for release messages, fencing) is shared by
 * {@code RedisLock} and {@code Acquisition}.
 */
public abstract class LockKind {

    /**
     * @return how users call this kind, for messages: "lock", "fair lock", "read lock", "write lock"
     */
    public abstract String describe();

    /**
     * @return how metrics name this kind: {@code reentrant}, {@code fair}, {@code read} or {@code write}
     */
    public String metricName() {
        String description = describe();
        return description.equals("lock") ? "reentrant" : description.substring(0, description.indexOf(' '));
    }

    /**
     * @return the keys of this kind's lock of that name
     */
    public abstract LockKeys keys(String prefix, String name);

    /**
     * @return what names {@code owner}'s hold in Redis: the owner itself (an exclusive lock) or
     *         its hold field (read/write)
     */
    public String holdField(String owner) {
        return owner;
    }

    /**
     * @return the field with {@code owner}'s own expiry, or "" when holds share the lock's lease
     */
    public String expiryField(String owner) {
        return "";
    }

    /**
     * One attempt; its KEYS[2] is the fencing counter.
     *
     * @return a call answering {1, fencing token} when acquired, {0, ms until something may change} when not
     */
    public abstract ScriptCall acquisition(LockKeys keys, AcquireRequest request);

    /**
     * @param requestId   unique to this release request, so a resent copy gets its answer
     * @param latchMillis how long that answer is kept: the command timeout, after which the client
     *                    resends nothing
     * @param offer       how a kind that {@link #offersToOtherProcesses()} offers the lock to the
     *                    next waiting process, or {@link RingRelease#NONE}
     * @return a call answering 0 when the owner's last hold is released, 1 when it is released and
     *         offered to a waiting process, -1 when the owner held nothing
     */
    public abstract ScriptCall release(LockKeys keys, String owner, String requestId, long latchMillis, RingRelease offer);

    /**
     * @param grant the fencing token of a grant of the lock to the requester's process, heard in
     *              its offer ({@code take-grant} in {@code exclusive.lua})
     * @return the call that makes the requester the holder of that grant
     * @throws UnsupportedOperationException if this kind's releases grant nothing (only the
     *                                       reentrant lock's do)
     */
    public ScriptCall takeGrant(LockKeys keys, AcquireRequest request, long grant) {
        throw new UnsupportedOperationException("The " + describe() + " is never granted to a process");
    }

    /**
     * The last release of a hold whose minimum hold has not passed: the lock stays taken, by
     * nobody, for {@code keepMillis}, and then expires.
     *
     * @param requestId   unique to this release request, so a resent copy gets its answer
     * @param latchMillis how long that answer is kept (see {@link #release})
     * @param keepMillis  what is left of the minimum hold
     * @return a call answering 0 when the lock is kept, -1 when the owner held nothing
     * @throws UnsupportedOperationException for a kind that cannot be kept (read/write)
     */
    public ScriptCall keep(LockKeys keys, String owner, String requestId, long latchMillis, long keepMillis) {
        throw new UnsupportedOperationException("the " + describe() + " has no minimum hold");
    }

    /**
     * @return true when a last release may pass the lock straight to a waiting owner of this
     *         process ({@link #handOver}); false when waiters take turns in Redis (fair) or
     *         several may hold at once (read/write)
     */
    public boolean handsOver() {
        return false;
    }

    /**
     * @return true when waiting processes join a ring in Redis and a release offers the lock to the
     *         first of them only ({@link RingRelease}); the reentrant lock, on one deployment
     */
    public boolean offersToOtherProcesses() {
        return false;
    }

    /**
     * Passes the owner's last hold straight to {@code taker}, with a new fencing token; only
     * called for kinds that {@link #handsOver()}.
     *
     * @param requestId   unique to this request, so a resent copy gets its answer
     * @param latchMillis how long that answer is kept (see {@link #release})
     * @return a call answering the taker's fencing token, or -1 when the owner held nothing
     */
    public ScriptCall handOver(LockKeys keys, String owner, AcquireRequest taker, String requestId, long latchMillis) {
        throw new UnsupportedOperationException("the " + describe() + " is not handed over");
    }

    /**
     * @param count       the owner's hold count from now on
     * @param leaseMillis a lease to keep at least (a re-entry), or 0 to leave the lease alone
     * @return a call answering 1 when the owner still holds the lock, 0 when its hold is gone;
     *         null when Redis keeps no count for this kind and nothing needs saying
     */
    public abstract ScriptCall holdCount(LockKeys keys, String owner, int count, long leaseMillis);

    /**
     * @return the call that removes what a waiter left in Redis (a place in a queue, a
     *         waiting-writer mark) after it gave up, or null when this kind leaves nothing
     */
    public ScriptCall giveUp(LockKeys keys, String owner) {
        return null;
    }

    /**
     * @return how a thread of this process waits for a lock of this kind
     */
    public abstract WaitStyle waiting();

    /**
     * @return whether anyone holds this side of the lock now
     */
    public abstract CompletionStage<Boolean> isLocked(LockStore store, LockKeys keys);

    /**
     * @return whether {@code owner} holds this side of the lock now
     */
    public abstract CompletionStage<Boolean> isHeldBy(LockStore store, LockKeys keys, String owner);

    /**
     * Refuses an acquisition that could never succeed, before any waiting.
     *
     * @param leases the holds of this process
     */
    public void checkMayAcquire(LeaseKeeper leases, LockKeys keys, String owner, String name) {
    }
}
