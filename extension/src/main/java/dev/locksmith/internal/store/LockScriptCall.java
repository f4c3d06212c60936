package dev.locksmith.internal.store;

import dev.locksmith.internal.redis.ScriptCall;
import java.util.Arrays;

/**
 * One call of a lock operation being built, each KEY and ARGV named as the operation's header in
 * its Lua file names it:
 *
 * <pre>{@code
 * LockScript.call("hold-count").key("lock", keys.lock())
 *         .arg("owner", owner).arg("count", count).arg("lease", "").integer();
 * }</pre>
 *
 * {@link #integer()} and {@link #list()} check the names against the header, so a call that
 * passes a value where the script expects another, or one too many or too few, is refused there.
 * They check where Java assertions are on, as in every test run of the library: a call site
 * names its values with constants, so its check comes out the same every time, and a lock call
 * in production pays neither for the names nor for the comparison.
 */
public final class LockScriptCall {
    private static final String[] NONE = new String[0];
    private static final boolean CHECKED = LockScriptCall.class.desiredAssertionStatus();

    private final LockOperation operation;
    // Sized for the operation's header, so that a call without repeated values is sent as built,
    // without a copy; the names are kept only where they are checked.
    private String[] keyNames;
    private String[] keys;
    private int keyCount;
    private String[] argNames;
    private String[] args;
    private int argCount;

    LockScriptCall(LockOperation operation) {
        this.operation = operation;
        this.keys = new String[Math.max(1, operation.keyCount())];
        this.args = new String[Math.max(1, operation.argCount())];
        this.keyNames = CHECKED ? new String[keys.length] : NONE;
        this.argNames = CHECKED ? new String[args.length] : NONE;
    }

    /**
     * @param name the key's name in the operation's header, such as {@code lock}
     * @param key  the key
     * @return this call
     * @throws NullPointerException naming the operation and the key when {@code key} is null
     */
    public LockScriptCall key(String name, String key) {
        if (keyCount == keys.length) {
            keys = Arrays.copyOf(keys, 2 * keyCount);
            keyNames = CHECKED ? Arrays.copyOf(keyNames, 2 * keyCount) : NONE;
        }
        if (CHECKED) {
            keyNames[keyCount] = name;
        }
        keys[keyCount++] = requireValue("KEYS", name, key);
        return this;
    }

    /**
     * @param name  the argument's name in the operation's header, such as {@code owner}
     * @param value its value
     * @return this call
     * @throws NullPointerException naming the operation and the argument when {@code value} is null
     */
    public LockScriptCall arg(String name, String value) {
        if (argCount == args.length) {
            args = Arrays.copyOf(args, 2 * argCount);
            argNames = CHECKED ? Arrays.copyOf(argNames, 2 * argCount) : NONE;
        }
        if (CHECKED) {
            argNames[argCount] = name;
        }
        args[argCount++] = requireValue("ARGV", name, value);
        return this;
    }

    /**
     * @return this call, with the number in decimal
     */
    public LockScriptCall arg(String name, long value) {
        return arg(name, Long.toString(value));
    }

    /**
     * @return this call, with {@code '1'} for true and {@code ''} for false, as the scripts read a flag
     */
    public LockScriptCall flag(String name, boolean on) {
        return arg(name, on ? "1" : "");
    }

    /**
     * @return the call, answering an integer
     * @throws IllegalArgumentException if its names differ from the operation's header (where
     *                                  assertions are on)
     */
    public ScriptCall integer() {
        check();
        return ScriptCall.integer(operation.script(), copy(keys, keyCount), copy(args, argCount));
    }

    /**
     * @return the call, answering a list
     * @throws IllegalArgumentException if its names differ from the operation's header (where
     *                                  assertions are on)
     */
    public ScriptCall list() {
        check();
        return ScriptCall.list(operation.script(), copy(keys, keyCount), copy(args, argCount));
    }

    private void check() {
        if (!CHECKED) {
            return;
        }
        operation.signature().check(copy(keyNames, keyCount), copy(argNames, argCount));
    }

    private String requireValue(String side, String name, String value) {
        if (value == null) {
            throw new NullPointerException("The call of script operation '" + operation.name() + "' gives no value for "
                    + side + " '" + name + "'; pass '' for an empty one");
        }
        return value;
    }

    private static String[] copy(String[] values, int count) {
        if (count == values.length) {
            return values;
        }
        return count == 0 ? NONE : Arrays.copyOf(values, count);
    }
}
