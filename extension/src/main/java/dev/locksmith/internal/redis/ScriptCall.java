package dev.locksmith.internal.redis;

import io.lettuce.core.ScriptOutputType;
import java.util.concurrent.CompletionStage;

/**
 * One script invocation, ready to send to any node.
 *
 * @param script the script
 * @param output how Redis's answer is read
 * @param byText whether it is sent with the script's text rather than its SHA
 * @param keys   its KEYS
 * @param args   its ARGV
 */
public record ScriptCall(LuaScript script, ScriptOutputType output, boolean byText, String[] keys, String... args) {

    /**
     * @return the call of a script answering an integer
     */
    public static ScriptCall integer(LuaScript script, String[] keys, String... args) {
        return new ScriptCall(script, ScriptOutputType.INTEGER, false, keys, args);
    }

    /**
     * @return the call of a script answering a list
     */
    public static ScriptCall list(LuaScript script, String[] keys, String... args) {
        return new ScriptCall(script, ScriptOutputType.MULTI, false, keys, args);
    }

    /**
     * @param runner where to run it
     * @param <T>    the answer's Java type
     * @return the answer
     */
    public <T> CompletionStage<T> runOn(ScriptRunner runner) {
        return byText ? runner.runText(script, output, keys, args) : runner.run(script, output, keys, args);
    }

    /**
     * @return the same call, sent with the script's text ({@code EVAL}) instead of its SHA: it
     *         then never comes back NOSCRIPT and needs no second send, so it runs in the order it
     *         was sent among the connection's commands
     */
    public ScriptCall withText() {
        return new ScriptCall(script, output, true, keys, args);
    }
}
