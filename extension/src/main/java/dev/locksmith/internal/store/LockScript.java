package dev.locksmith.internal.store;

import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.ScriptCall;
import java.util.Map;
import java.util.TreeSet;

/**
 * The Lua scripts behind the lock operations: one per operation, each cut from the library's Lua
 * files ({@code common.lua}, then one per concern) with the helpers it uses ({@link LockScriptSource}).
 */
public final class LockScript {
    private static final Map<String, LuaScript> OPERATIONS = LockScriptSource.library();

    private LockScript() {
    }

    /**
     * @param operation the operation, such as {@code release}
     * @param keys      its KEYS
     * @param args      its ARGV
     * @return a call answering an integer
     */
    public static ScriptCall integer(String operation, String[] keys, String... args) {
        return ScriptCall.integer(script(operation), keys, args);
    }

    /**
     * @param operation the operation, such as {@code acquire}
     * @param keys      its KEYS
     * @param args      its ARGV
     * @return a call answering a list
     */
    public static ScriptCall list(String operation, String[] keys, String... args) {
        return ScriptCall.list(script(operation), keys, args);
    }

    /**
     * @param operation the operation, such as {@code acquire}
     * @return its script
     * @throws IllegalArgumentException if no Lua file of the library has such an operation
     */
    public static LuaScript script(String operation) {
        LuaScript script = OPERATIONS.get(operation);
        if (script == null) {
            throw new IllegalArgumentException("The Lua files have no operation '" + operation + "'; they have "
                    + new TreeSet<>(OPERATIONS.keySet()));
        }
        return script;
    }
}
