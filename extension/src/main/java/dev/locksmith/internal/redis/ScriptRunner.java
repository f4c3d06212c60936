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
        CompletionStage<T> first = commands.evalsha(script.sha(), output, keys, args);
        return first.handle((answer, failure) -> {
            if (failure == null) {
                return CompletableFuture.completedFuture(answer);
            }
            if (!(unwrap(failure) instanceof RedisNoScriptException)) {
                return CompletableFuture.<T>failedFuture(unwrap(failure));
            }
            // EVAL rather than SCRIPT LOAD: EVAL is routed by key to the node that must run it (and
            // caches the script there), while a cluster client sends SCRIPT LOAD to every node it
            // knows, including one that just died in a failover.
            return commands.<T>eval(script.body(), output, keys, args).toCompletableFuture();
        }).thenCompose(stage -> stage);
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
