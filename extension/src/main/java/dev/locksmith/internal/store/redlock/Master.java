package dev.locksmith.internal.store.redlock;

import dev.locksmith.RedisMode;
import dev.locksmith.internal.redis.RedisEndpoint;
import dev.locksmith.internal.redis.RedisResources;
import dev.locksmith.internal.redis.ScriptRunner;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One master: connected now, or not yet.
 */
final class Master {
    private static final Throwable NOT_CONNECTED = new RedisConnectionException("not connected yet");

    final RedisResources resources;
    private final RedisURI uri;
    private final Duration commandTimeout;
    final String name;
    volatile RedisEndpoint endpoint;
    private volatile ScriptRunner scripts;

    Master(RedisResources resources, RedisURI uri, Duration commandTimeout, String name) {
        this.resources = resources;
        this.uri = uri;
        this.commandTimeout = commandTimeout;
        this.name = name;
    }

    void connect() {
        RedisEndpoint connected = RedisEndpoint.connect(resources, RedisMode.STANDALONE, List.of(uri),
                commandTimeout, name);
        scripts = new ScriptRunner(connected.commands());
        endpoint = connected;
    }

    boolean isConnected() {
        return endpoint != null;
    }

    <T> CompletableFuture<MasterReply<T>> ask(Function<ScriptRunner, CompletionStage<T>> request, long timeoutMillis) {
        ScriptRunner runner = scripts;
        if (runner == null) {
            return CompletableFuture.completedFuture(new MasterReply<>(null, NOT_CONNECTED));
        }
        return bounded(() -> request.apply(runner), timeoutMillis);
    }

    <T> CompletableFuture<MasterReply<T>> command(Function<Master, CompletionStage<T>> request, long timeoutMillis) {
        if (endpoint == null) {
            return CompletableFuture.completedFuture(new MasterReply<>(null, NOT_CONNECTED));
        }
        return bounded(() -> request.apply(this), timeoutMillis);
    }

    private static <T> CompletableFuture<MasterReply<T>> bounded(Supplier<CompletionStage<T>> request,
                                                           long timeoutMillis) {
        CompletableFuture<T> answer;
        try {
            answer = request.get().toCompletableFuture();
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        return answer.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .handle((value, failure) -> new MasterReply<>(value, unwrap(failure)));
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    void close() {
        RedisEndpoint connected = endpoint;
        if (connected != null) {
            connected.close();
        }
    }
}
