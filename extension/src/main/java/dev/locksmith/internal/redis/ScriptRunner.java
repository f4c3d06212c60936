package dev.locksmith.internal.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * Runs Lua scripts by SHA. A server that does not know a script (restarted, flushed, a promoted
 * replica) answers NOSCRIPT; the call is then repeated once with the script's text, which the
 * server caches for the next SHA call.
 */
public final class ScriptRunner {
    private final RedisClusterAsyncCommands<String, String> commands;

    /**
     * @param commands where the scripts run; a standalone or a cluster connection
     */
    public ScriptRunner(RedisClusterAsyncCommands<String, String> commands) {
        this.commands = commands;
    }

    /**
     * @param script the script
     * @param output how Redis's answer is read (INTEGER gives a Long, MULTI a List)
     * @param keys   the script's KEYS
     * @param args   the script's ARGV
     * @param <T>    the answer's Java type, as {@code output} gives it
     * @return the script's answer, or a failure carrying the Redis error
     */
    public <T> CompletionStage<T> run(LuaScript script, ScriptOutputType output, String[] keys, String... args) {
        // One future completed from the reply, not a chain of stages: the reply's thread (the one
        // that reads from Redis for every caller) does as little as it can per answer.
        CompletableFuture<T> answer = new CompletableFuture<>();
        commands.<T>evalsha(script.sha(), output, keys, args).whenComplete((value, failure) -> {
            if (failure == null) {
                answer.complete(value);
            } else if (unwrap(failure) instanceof RedisNoScriptException) {
                // EVAL rather than SCRIPT LOAD: EVAL is routed by key to the node that must run it (and
                // caches the script there), while a cluster client sends SCRIPT LOAD to every node it
                // knows, including one that just died in a failover.
                commands.<T>eval(script.body(), output, keys, args).whenComplete((retried, again) -> {
                    if (again == null) {
                        answer.complete(retried);
                    } else {
                        answer.completeExceptionally(unwrap(again));
                    }
                });
            } else {
                answer.completeExceptionally(unwrap(failure));
            }
        });
        return answer;
    }

    /**
     * Runs a script by its text ({@code EVAL}), in the order it is sent: for a call that must not
     * be overtaken, such as the clean-up after an acquisition whose answer never came.
     *
     * @see #run
     */
    public <T> CompletionStage<T> runText(LuaScript script, ScriptOutputType output, String[] keys, String... args) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        commands.<T>eval(script.body(), output, keys, args).whenComplete((value, failure) -> {
            if (failure == null) {
                answer.complete(value);
            } else {
                answer.completeExceptionally(unwrap(failure));
            }
        });
        return answer;
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
