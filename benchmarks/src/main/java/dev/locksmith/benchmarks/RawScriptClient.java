package dev.locksmith.benchmarks;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The floor any Redis lock pays: one EVALSHA to acquire ({@code raw-acquire.lua}) and one to
 * release ({@code raw-release.lua}), all threads sharing one Lettuce connection. No reentrancy,
 * no watchdog, no fencing, no pub/sub: a busy lock is retried at once, so under contention this
 * measures a polling lock, not a limit.
 */
final class RawScriptClient implements LockClient {
    private static final String LEASE_MILLIS = "30000";

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisCommands<String, String> redis;
    private final String acquireSha;
    private final String releaseSha;
    private final String clientId = UUID.randomUUID().toString();

    RawScriptClient(String redisUri) {
        this.client = RedisClient.create(redisUri);
        this.connection = client.connect();
        this.redis = connection.sync();
        this.acquireSha = redis.scriptLoad(script("raw-acquire.lua"));
        this.releaseSha = redis.scriptLoad(script("raw-release.lua"));
    }

    @Override
    public CycleLock lockFor(Scenario.Kind kind, String name) {
        if (kind != Scenario.Kind.REENTRANT) {
            throw new UnsupportedOperationException("The raw limit is a plain exclusive lock, not " + kind);
        }
        String[] keys = {"bench-raw:" + name};
        return inside -> {
            String owner = owner();
            while (redis.<Long>evalsha(acquireSha, ScriptOutputType.INTEGER, keys, owner, LEASE_MILLIS) == 0L) {
                Thread.onSpinWait();
            }
            try {
                return inside.run(true);
            } finally {
                if (redis.<Long>evalsha(releaseSha, ScriptOutputType.INTEGER, keys, owner) == 0L) {
                    throw new IllegalMonitorStateException("Raw lock '" + keys[0] + "' is not held by " + owner);
                }
            }
        };
    }

    @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19
    private String owner() {
        return clientId + ":" + Thread.currentThread().getId();
    }

    private static String script(String resource) {
        try (InputStream in = RawScriptClient.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Script " + resource + " is missing from the benchmark's class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read script " + resource, e);
        }
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
