package dev.locksmith.internal.lock;

import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.redis.ScriptRunner;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the reentrant lock's scripts directly, as owners the test names, so that a test can send
 * what a client would send twice, or as two processes: owner ids are {@code <manager>:<thread>}.
 */
final class ScriptClient implements AutoCloseable {
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final ScriptRunner scripts;

    ScriptClient(String uri) {
        this.client = RedisClient.create(uri);
        this.connection = client.connect();
        this.scripts = new ScriptRunner(connection.async());
    }

    /**
     * @return {1, fencing token} when acquired, {0, ms to wait} when not
     */
    List<Long> acquire(LockKeys keys, String owner) throws Exception {
        return run(ExclusiveKind.INSTANCE.acquisition(keys,
                new AcquireRequest(owner, 30_000, System.currentTimeMillis(), "t", 86_400_000)));
    }

    /**
     * @return 0 when released, -1 when the owner held nothing
     */
    long release(LockKeys keys, String owner, String requestId, boolean othersFirst) throws Exception {
        return run(ExclusiveKind.INSTANCE.release(keys, owner, requestId, 5000, othersFirst));
    }

    /**
     * @return 0 when kept for {@code keepMillis}, -1 when the owner held nothing
     */
    long keep(LockKeys keys, String owner, String requestId, long keepMillis) throws Exception {
        return run(ExclusiveKind.INSTANCE.keep(keys, owner, requestId, 5000, keepMillis));
    }

    /**
     * @return the taker's fencing token, or -1 when the owner held nothing
     */
    long handOver(LockKeys keys, String owner, String taker, String requestId) throws Exception {
        AcquireRequest request = new AcquireRequest(taker, 30_000, System.currentTimeMillis(), "taker", 86_400_000);
        return run(ExclusiveKind.INSTANCE.handOver(keys, owner, request, requestId, 5000));
    }

    RedisCommands<String, String> redis() {
        return connection.sync();
    }

    private <T> T run(ScriptCall call) throws Exception {
        return call.<T>runOn(scripts).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
