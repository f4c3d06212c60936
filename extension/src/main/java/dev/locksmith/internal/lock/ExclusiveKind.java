package dev.locksmith.internal.lock;

import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import java.util.List;
import java.util.concurrent.CompletionStage;

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
    CompletionStage<List<Long>> acquire(ScriptRunner scripts, LockKeys keys, String owner, long leaseMillis,
                                        long patience) {
        return scripts.run(ACQUIRE, ScriptOutputType.MULTI, new String[] {keys.hash(), keys.fence()},
                owner, Long.toString(leaseMillis));
    }

    @Override
    CompletionStage<Long> release(ScriptRunner scripts, LockKeys keys, String owner, long leaseMillis,
                                  String latchKey, long latchMillis) {
        return scripts.run(RELEASE, ScriptOutputType.INTEGER, new String[] {keys.hash(), keys.channel(), latchKey},
                owner, Long.toString(leaseMillis), Long.toString(latchMillis));
    }
}
