package dev.locksmith.internal.redis;

import dev.locksmith.LockException;
import dev.locksmith.RedisMode;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.resource.ClientResources;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;

/**
 * Makes a {@link RedisEndpoint}: the Lettuce client with the options its {@link RedisMode} needs,
 * its two connections, each connect bounded, and, when a connect fails, the client let go of again.
 */
final class EndpointConnector {
    // The logger of the endpoint operators know, whichever class of it says the line.
    private static final Logger LOG = System.getLogger(RedisEndpoint.class.getName());

    private EndpointConnector() {
    }

    /**
     * @see RedisEndpoint#connect(RedisResources, RedisMode, List, Duration, String)
     */
    static RedisEndpoint connect(RedisResources shared, RedisMode mode, List<RedisURI> uris, Duration commandTimeout,
                                 String description) {
        ClientResources resources = shared.lettuce();
        // Not through Sentinel: there the URI's timeout is also how long Lettuce asks the Sentinels
        // for the master after a failover, and a failover needs that patience.
        List<RedisURI> bounded = mode == RedisMode.SENTINEL ? uris
                : uris.stream().map(uri -> connectBoundedBy(uri, commandTimeout)).toList();
        try {
            if (mode == RedisMode.CLUSTER) {
                return connectCluster(resources, bounded, commandTimeout, description);
            }
            return connectSingle(resources, bounded.get(0), commandTimeout, description);
        } catch (RedisException e) {
            throw new LockException("Cannot connect to Redis at " + description + ": "
                    + ConnectFailure.explain(e, "locksmith.redis.uri"), e);
        }
    }

    /**
     * A URI whose connect (the socket and the handshake) waits at most the command timeout, unless
     * it names a timeout of its own ({@code ?timeout=}): Lettuce's default is a minute, and a server
     * that accepts and stays silent would hold {@code build()}, or a RedLock master's rejoin, that long.
     * For a master, a RedLock master or a cluster's nodes.
     */
    private static RedisURI connectBoundedBy(RedisURI uri, Duration commandTimeout) {
        if (uri.getTimeout().equals(RedisURI.DEFAULT_TIMEOUT_DURATION)) {
            uri.setTimeout(commandTimeout); // the manager's own URI, parsed from its settings
        }
        return uri;
    }

    private static RedisEndpoint connectSingle(ClientResources resources, RedisURI uri, Duration timeout,
                                               String description) {
        RedisClient client = RedisClient.create(resources);
        client.setOptions(ClientOptions.builder()
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .build());
        try {
            var connection = client.connect(ExactUtf8Codec.INSTANCE, uri);
            var pubSub = client.connectPubSub(ExactUtf8Codec.INSTANCE, uri);
            var commands = connection.async();
            return new RedisEndpoint(resources, client, commands, pubSub, key -> 0,
                    (key, replicas, timeoutMillis) -> commands.waitForReplication(replicas, timeoutMillis), description);
        } catch (RedisException e) {
            shutdownQuietly(client, description);
            throw e;
        }
    }

    private static RedisEndpoint connectCluster(ClientResources resources, List<RedisURI> seeds, Duration timeout,
                                                String description) {
        RedisClusterClient client = RedisClusterClient.create(resources, seeds);
        client.setOptions(ClusterClientOptions.builder()
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                // Find a promoted replica within seconds of a failover: by default an adaptive refresh
                // may run only once every 30 s, and locks on the failed slot would wait that long.
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers()
                        .adaptiveRefreshTriggersTimeout(Duration.ofSeconds(1))
                        .refreshTriggersReconnectAttempts(2)
                        .enablePeriodicRefresh(Duration.ofSeconds(5))
                        .build())
                .build());
        try {
            var connection = client.connect(ExactUtf8Codec.INSTANCE);
            var pubSub = client.connectPubSub(ExactUtf8Codec.INSTANCE);
            return new RedisEndpoint(resources, client, connection.async(), pubSub, SlotHash::getSlot,
                    ReplicaWait.onMasterOf(connection), description);
        } catch (RedisException e) {
            shutdownQuietly(client, description);
            throw e;
        }
    }

    /** After a failed connect: lets go of the client without waiting longer than the bound. */
    private static void shutdownQuietly(AbstractRedisClient client, String description) {
        try {
            ShutdownBound.await(ShutdownBound.shutdown(client), "Closing the Redis client of a failed connect to "
                    + description, () -> "");
        } catch (ExecutionException e) {
            LOG.log(Level.DEBUG, "Shutting down the client of a failed connect to " + description + " failed", e);
        }
    }
}
