package dev.locksmith.internal.lock;

import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.ScriptCall;

/**
 * The reentrant, non-fair lock: whoever asks first after a release gets it.
 */
final class ExclusiveKind extends LockKind {
    static final ExclusiveKind INSTANCE = new ExclusiveKind();

    private static final LuaScript ACQUIRE = LuaScript.load("acquire");
    private static final LuaScript RELEASE = LuaScript.load("release");

    private ExclusiveKind() {
    }

    @Override
    String describe() {
        return "lock";
    }

    @Override
    LockKeys keys(String prefix, String name) {
        return LockKeys.of(prefix, name);
    }

    @Override
    ScriptCall acquisition(LockKeys keys, String owner, long leaseMillis, long patience) {
        return ScriptCall.list(ACQUIRE, new String[] {keys.hash(), keys.fence()}, owner, Long.toString(leaseMillis));
    }

    @Override
    ScriptCall release(LockKeys keys, String owner, long leaseMillis, String latchKey, long latchMillis) {
        return ScriptCall.integer(RELEASE, new String[] {keys.hash(), keys.channel(), latchKey},
                owner, Long.toString(leaseMillis), Long.toString(latchMillis), keys.publish());
    }
}
