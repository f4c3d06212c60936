package dev.locksmith.internal.lock;

import dev.locksmith.internal.lease.LeaseKeeper;
import dev.locksmith.internal.redis.ScriptCall;
import java.util.List;

/**
 * What differs between the kinds of lock: the scripts that acquire and release, which hash
 * field counts an owner's holds, and how waiters queue. Everything else (re-entry, leases,
 * the watchdog, waiting for release messages, fencing) is shared by {@link RedisLock} and {@link Acquisition}.
 */
abstract class LockKind {

    /**
     * @return how users call this kind, for messages: "lock", "fair lock", "read lock", "write lock"
     */
    abstract String describe();

    /**
     * @return the keys of this kind's lock of that name
     */
    abstract LockKeys keys(String prefix, String name);

    /**
     * @return the hash field that counts {@code owner}'s holds
     */
    String holdField(String owner) {
        return owner;
    }

    /**
     * @return the hash field with {@code owner}'s own expiry, or "" when holds share the hash's lease
     */
    String expiryField(String owner) {
        return "";
    }

    /**
     * One attempt; its KEYS[2] is the fencing counter.
     *
     * @param patience how long a waiter keeps its place in a Redis-side queue without asking again
     * @return a call answering {1, fencing token} when acquired, {0, ms until something may change} when not
     */
    abstract ScriptCall acquisition(LockKeys keys, String owner, long leaseMillis, long patience);

    /**
     * @return a call answering the holds left on this side (0 = released), or -1 when the owner held nothing
     */
    abstract ScriptCall release(LockKeys keys, String owner, long leaseMillis, String latchKey, long latchMillis);

    /**
     * Removes what a waiter left in Redis (a place in a queue, a waiting-writer mark) after it
     * gave up; only called for kinds that {@link #leavesTracesWhileWaiting()}.
     */
    ScriptCall giveUp(LockKeys keys, String owner) {
        throw new UnsupportedOperationException("the " + describe() + " leaves nothing behind while waiting");
    }

    /**
     * @return true when every waiter queues in Redis (fair), false when one local thread contends for all
     */
    boolean queuesInRedis() {
        return false;
    }

    /**
     * @return true when a waiter leaves a mark in Redis that {@link #giveUp} must remove
     */
    boolean leavesTracesWhileWaiting() {
        return false;
    }

    /**
     * @param fields the hash's fields
     * @return true if they show a hold of this kind
     */
    boolean isLockedBy(List<String> fields) {
        return !fields.isEmpty();
    }

    /**
     * Refuses an acquisition that could never succeed, before any waiting.
     *
     * @param leases the holds of this process
     */
    void checkMayAcquire(LeaseKeeper leases, LockKeys keys, String owner, String name) {
    }
}
