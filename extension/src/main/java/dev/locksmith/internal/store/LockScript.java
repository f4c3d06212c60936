package dev.locksmith.internal.store;

import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.ScriptCall;

/**
 * The one Lua script behind every lock operation ({@code locksmith.lua}): its first argument
 * names the operation, so the helpers every operation shares are written once and Redis caches
 * one script.
 */
public final class LockScript {
    private static final LuaScript SCRIPT = LuaScript.load("locksmith");

    private LockScript() {
    }

    /**
     * @param operation the operation, such as {@code release}
     * @param keys      its KEYS
     * @param args      its ARGV after the operation's name
     * @return a call answering an integer
     */
    public static ScriptCall integer(String operation, String[] keys, String... args) {
        return ScriptCall.integer(SCRIPT, keys, withOperation(operation, args));
    }

    /**
     * @param operation the operation, such as {@code acquire}
     * @param keys      its KEYS
     * @param args      its ARGV after the operation's name
     * @return a call answering a list
     */
    public static ScriptCall list(String operation, String[] keys, String... args) {
        return ScriptCall.list(SCRIPT, keys, withOperation(operation, args));
    }

    private static String[] withOperation(String operation, String[] args) {
        String[] all = new String[args.length + 1];
        all[0] = operation;
        System.arraycopy(args, 0, all, 1, args.length);
        return all;
    }
}
