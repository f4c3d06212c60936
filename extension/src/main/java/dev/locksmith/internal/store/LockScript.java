package dev.locksmith.internal.store;

import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.ScriptCall;
import java.util.Map;
import java.util.TreeSet;

/**
 * The Lua scripts behind the lock operations: one per operation, each cut from
 * {@code locksmith.lua} with the helpers it uses ({@link LockScriptSource}). Each call passes the
 * operation's name as its first argument, where the source expects it.
 */
public final class LockScript {
    private static final Map<String, LuaScript> OPERATIONS = LockScriptSource.operations("locksmith.lua",
            LuaScript.source("locksmith"));

    private LockScript() {
    }

    /**
     * @param operation the operation, such as {@code release}
     * @param keys      its KEYS
     * @param args      its ARGV after the operation's name
     * @return a call answering an integer
     */
    public static ScriptCall integer(String operation, String[] keys, String... args) {
        return ScriptCall.integer(script(operation), keys, withOperation(operation, args));
    }

    /**
     * @param operation the operation, such as {@code acquire}
     * @param keys      its KEYS
     * @param args      its ARGV after the operation's name
     * @return a call answering a list
     */
    public static ScriptCall list(String operation, String[] keys, String... args) {
        return ScriptCall.list(script(operation), keys, withOperation(operation, args));
    }

    /**
     * @param operation the operation, such as {@code acquire}
     * @return its script
     * @throws IllegalArgumentException if {@code locksmith.lua} has no such operation
     */
    public static LuaScript script(String operation) {
        LuaScript script = OPERATIONS.get(operation);
        if (script == null) {
            throw new IllegalArgumentException("locksmith.lua has no operation '" + operation + "'; it has "
                    + new TreeSet<>(OPERATIONS.keySet()));
        }
        return script;
    }

    private static String[] withOperation(String operation, String[] args) {
        String[] all = new String[args.length + 1];
        all[0] = operation;
        System.arraycopy(args, 0, all, 1, args.length);
        return all;
    }
}
