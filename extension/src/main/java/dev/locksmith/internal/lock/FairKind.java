package dev.locksmith.internal.lock;

import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.ScriptCall;

/**
 * The fair lock: waiters queue in Redis in the order they asked, across all processes, and a
 * release wakes only the head of the queue. It shares its hash with the non-fair lock of the
 * same name, so the two exclude each other (a non-fair acquirer does not queue, though).
 */
final class FairKind extends LockKind {
    static final FairKind INSTANCE = new FairKind();

    private static final LuaScript ACQUIRE = LuaScript.load("fair-acquire");
    private static final LuaScript RELEASE = LuaScript.load("fair-release");
    private static final LuaScript LEAVE = LuaScript.load("fair-leave");

    private FairKind() {
    }

    @Override
    String describe() {
        return "fair lock";
    }

    @Override
    LockKeys keys(String prefix, String name) {
        return LockKeys.of(prefix, name);
    }

    @Override
    ScriptCall acquisition(LockKeys keys, String owner, long leaseMillis, long patience) {
        return ScriptCall.list(ACQUIRE,
                new String[] {keys.hash(), keys.fence(), keys.channel(), keys.queue(), keys.queueDeadlines()},
                owner, Long.toString(leaseMillis), Long.toString(patience));
    }

    @Override
    ScriptCall release(LockKeys keys, String owner, long leaseMillis, String latchKey, long latchMillis) {
        return ScriptCall.integer(RELEASE,
                new String[] {keys.hash(), keys.channel(), latchKey, keys.queue(), keys.queueDeadlines()},
                owner, Long.toString(leaseMillis), Long.toString(latchMillis), keys.publish());
    }

    @Override
    ScriptCall giveUp(LockKeys keys, String owner) {
        return ScriptCall.integer(LEAVE,
                new String[] {keys.hash(), keys.channel(), keys.queue(), keys.queueDeadlines()}, owner, keys.publish());
    }

    @Override
    boolean queuesInRedis() {
        return true;
    }

    @Override
    boolean leavesTracesWhileWaiting() {
        return true;
    }
}
