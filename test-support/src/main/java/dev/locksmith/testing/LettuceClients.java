package dev.locksmith.testing;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;

/**
 * Plain Lettuce clients for the fixtures' own tests, which prove the topologies work without
 * the lock library: short command timeouts, so a silent node fails a test fast.
 */
final class LettuceClients {
    private LettuceClients() {
    }

    /**
     * @param commandTimeout how long a command may take
     * @return a client for standalone and Sentinel URIs
     */
    static RedisClient standalone(Duration commandTimeout) {
        RedisClient client = RedisClient.create();
        client.setOptions(ClientOptions.builder().timeoutOptions(TimeoutOptions.enabled(commandTimeout)).build());
        return client;
    }

    /**
     * A cluster client that refreshes its topology on redirects, on reconnect attempts and
     * every second, so it learns of a failover quickly.
     *
     * @param seedsUri        a comma list of {@code redis://} seeds
     * @param commandTimeout how long a command may take
     * @return the client
     */
    static RedisClusterClient cluster(String seedsUri, Duration commandTimeout) {
        RedisClusterClient client = RedisClusterClient.create(java.util.Arrays.stream(seedsUri.split(","))
                .map(RedisURI::create).toList());
        client.setOptions(ClusterClientOptions.builder()
                .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers()
                        .enablePeriodicRefresh(Duration.ofSeconds(1))
                        .build())
                .build());
        return client;
    }

    /**
     * @param uri a {@code redis://} or {@code redis-sentinel://} URI
     * @return it, parsed
     */
    static RedisURI uri(String uri) {
        return RedisURI.create(uri);
    }
}
