package dev.locksmith.internal.store;

import dev.locksmith.internal.redis.LuaScript;
import java.util.Map;
import java.util.TreeSet;

/**
 * The Lua scripts behind the lock operations: one per operation, each cut from the library's Lua
 * files ({@code common.lua}, then one per concern) with the helpers it uses ({@link LockScriptSource}).
 * Every call of one is built by {@link #call}, naming each of its KEYS and ARGV as the operation's
 * header does.
 */
public final class LockScript {
    private static final Map<String, LockOperation> OPERATIONS = LockScriptSource.library();

    private LockScript() {
    }

    /**
     * @param operation the operation, such as {@code acquire}
     * @return a call of it, to be given its KEYS and ARGV by name and in order
     * @throws IllegalArgumentException if no Lua file of the library has such an operation
     */
    public static LockScriptCall call(String operation) {
        return new LockScriptCall(operation(operation));
    }

    /**
     * @param operation the operation, such as {@code acquire}
     * @return its script
     * @throws IllegalArgumentException if no Lua file of the library has such an operation
     */
    public static LuaScript script(String operation) {
        return operation(operation).script();
    }

    /**
     * @return the operation of that name
     * @throws IllegalArgumentException if no Lua file of the library has such an operation
     */
    static LockOperation operation(String operation) {
        LockOperation found = OPERATIONS.get(operation);
        if (found == null) {
            throw new IllegalArgumentException("The Lua files have no operation '" + operation + "'; they have "
                    + new TreeSet<>(OPERATIONS.keySet()));
        }
        return found;
    }

    /**
     * @return every operation of the library, by name
     */
    static Map<String, LockOperation> operations() {
        return OPERATIONS;
    }
}
