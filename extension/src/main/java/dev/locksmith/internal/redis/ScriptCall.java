package dev.locksmith.internal.redis;

import io.lettuce.core.ScriptOutputType;
import java.util.concurrent.CompletionStage;

/**
 * One script invocation, ready to send to any node.
 *
 * @param script the script
 * @param output how Redis's answer is read
 * @param keys   its KEYS
 * @param args   its ARGV
 */
public record ScriptCall(LuaScript script, ScriptOutputType output, String[] keys, String... args) {

    /**
     * @return the call of a script answering an integer
     */
    public static ScriptCall integer(LuaScript script, String[] keys, String... args) {
        return new ScriptCall(script, ScriptOutputType.INTEGER, keys, args);
    }

    /**
     * @return the call of a script answering a list
     */
    public static ScriptCall list(LuaScript script, String[] keys, String... args) {
        return new ScriptCall(script, ScriptOutputType.MULTI, keys, args);
    }

    /**
     * @param runner where to run it
     * @param <T>    the answer's Java type
     * @return the answer
     */
    public <T> CompletionStage<T> runOn(ScriptRunner runner) {
        return runner.run(script, output, keys, args);
    }
}
