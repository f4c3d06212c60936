package dev.locksmith.internal.redis;

import dev.locksmith.LockException;
import dev.locksmith.RedisMode;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;
import reactor.core.Disposable;

/**
 * The connections to one Redis deployment (a master, a master found through Sentinel, or a
 * cluster): one multiplexed connection for commands and one for pub/sub, shared by every lock.
 */
public final class RedisEndpoint implements AutoCloseable {
    private final ClientResources resources;
    private final AbstractRedisClient client;
    private final RedisClusterAsyncCommands<String, String> commands;
    private final StatefulRedisPubSubConnection<String, String> pubSub;
    private final ToIntFunction<String> partitionOfKey;
    private final ReplicaWait replicaWait;
    private final String description;
    private final boolean cluster;
    private volatile Disposable topologyWatch;

    RedisEndpoint(ClientResources resources, AbstractRedisClient client,
                  RedisClusterAsyncCommands<String, String> commands,
                  StatefulRedisPubSubConnection<String, String> pubSub,
                  ToIntFunction<String> partitionOfKey, ReplicaWait replicaWait, String description) {
        this.resources = resources;
        this.client = client;
        this.commands = commands;
        this.pubSub = pubSub;
        this.partitionOfKey = partitionOfKey;
        this.replicaWait = replicaWait;
        this.description = description;
        this.cluster = client instanceof RedisClusterClient;
    }

    /**
     * Connects, failing at once when the deployment cannot be reached.
     *
     * @param shared         the manager's threads
     * @param mode           STANDALONE, SENTINEL or CLUSTER
     * @param uris           one URI, or the cluster's seeds
     * @param commandTimeout how long a command may take before it fails
     * @return the connected endpoint
     * @throws LockException if Redis cannot be reached, saying why
     */
    public static RedisEndpoint connect(RedisResources shared, RedisMode mode, List<RedisURI> uris,
                                        Duration commandTimeout) {
        return connect(shared, mode, uris, commandTimeout, mode + " " + RedisUris.redacted(uris));
    }

    /**
     * Connects, failing at once when the server cannot be reached.
     *
     * @param description how messages name the server, without secrets (such as {@code REDLOCK master
     *                    2 of 3 redis://10.0.0.2:6379})
     * @throws LockException if Redis cannot be reached, saying why
     */
    public static RedisEndpoint connect(RedisResources shared, RedisMode mode, List<RedisURI> uris,
                                        Duration commandTimeout, String description) {
        return EndpointConnector.connect(shared, mode, uris, commandTimeout, description);
    }

    /**
     * @return asynchronous commands on the shared connection
     */
    public RedisClusterAsyncCommands<String, String> commands() {
        return commands;
    }

    /**
     * Waits ({@code WAIT}) until {@code replicas} replicas acknowledged the writes this process
     * made so far to {@code key}'s master. {@code WAIT} counts the writes of the connection it is
     * sent on, so it goes where the key's writes went: the shared connection of a single server,
     * or, in a cluster, the connection to the key's master over which the cluster connection
     * sent them.
     *
     * @param key a key just written
     * @return how many replicas acknowledged within {@code timeoutMillis}
     */
    public CompletionStage<Long> awaitReplicas(String key, int replicas, long timeoutMillis) {
        return replicaWait.await(key, replicas, timeoutMillis);
    }

    /**
     * @return the shared pub/sub connection
     */
    public StatefulRedisPubSubConnection<String, String> pubSub() {
        return pubSub;
    }

    /**
     * Splits keys into groups that one script call may touch together: all of them on a single
     * server, one group per hash slot in a cluster.
     *
     * @param key a key
     * @return the group of that key
     */
    public int partitionOf(String key) {
        return partitionOfKey.applyAsInt(key);
    }

    /**
     * @return true where releases should travel by sharded pub/sub: a cluster
     */
    public boolean shardedPubSub() {
        return cluster;
    }

    /**
     * @param action run (on an event thread; it must not block) whenever a cluster's topology
     *               changes, such as after a failover, or, with a single server, whenever the
     *               pub/sub connection connected again (Lettuce subscribes its channels again
     *               itself then, but only logs a subscription that Redis refused)
     */
    public void onTopologyChange(Runnable action) {
        if (cluster) {
            topologyWatch = resources.eventBus().get()
                    .filter(ClusterTopologyChangedEvent.class::isInstance)
                    .subscribe(event -> action.run());
        } else {
            client.addListener(new RedisConnectionStateListener() {
                @Override
                public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress address) {
                    if (connection == pubSub) {
                        action.run();
                    }
                }
            });
        }
    }

    /**
     * @return the mode and the addresses, with any password masked
     */
    public String description() {
        return description;
    }

    /**
     * Closes both connections and the client, waiting at most {@link ShutdownBound#TIMEOUT}; what
     * has not closed by then (its I/O thread is stuck) is named in a WARNING and left behind.
     *
     * @throws LockException if closing a connection failed
     */
    @Override
    public void close() {
        closeAll(List.of(this));
    }

    /**
     * Closes several endpoints at once (a RedLock manager's masters), waiting at most
     * {@link ShutdownBound#TIMEOUT} for all of them together; the ones that have not closed by
     * then are named in a WARNING and left behind.
     *
     * @param endpoints the endpoints to close
     * @throws LockException if closing a connection failed
     */
    public static void closeAll(List<RedisEndpoint> endpoints) {
        Map<RedisEndpoint, CompletableFuture<Void>> closing = new LinkedHashMap<>();
        endpoints.forEach(endpoint -> closing.put(endpoint, endpoint.closeAsync()));
        try {
            ShutdownBound.await(CompletableFuture.allOf(closing.values().toArray(CompletableFuture[]::new)),
                    "Closing the Redis connections", () -> ". Not closed: " + closing.entrySet().stream()
                            .filter(entry -> !entry.getValue().isDone())
                            .map(entry -> "the connections to " + entry.getKey().description)
                            .collect(Collectors.joining(", ")));
        } catch (ExecutionException e) {
            throw e.getCause() instanceof LockException failure ? failure
                    : new LockException("Closing the Redis connections failed", e.getCause());
        }
    }

    private CompletableFuture<Void> closeAsync() {
        if (topologyWatch != null) {
            topologyWatch.dispose();
        }
        // The client closes every connection it made (both of ours), then lets go of its threads.
        try {
            return ShutdownBound.shutdown(client).exceptionally(failure -> {
                throw new CompletionException(new LockException("Closing the Redis connections to " + description
                        + " failed", failure instanceof CompletionException ? failure.getCause() : failure));
            });
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new LockException("Closing the Redis connections to " + description
                    + " failed", e));
        }
    }
}
