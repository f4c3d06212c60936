package dev.locksmith.contract;

import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.testing.IndependentMasters;
import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.ReplicatedRedis;
import dev.locksmith.testing.RespClient;
import dev.locksmith.testing.SentinelRedis;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One topology of real {@code redis-server} processes from test-support, started by the first
 * test class that registers it and shared by every later class of the run (the root context's
 * store closes it at the end): the contracts each use a key prefix of their own per test, so they
 * need no server of their own, and five topologies start once instead of once per class.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final SharedRedis redis = SharedRedis.cluster();
 * }</pre>
 */
final class SharedRedis implements RedisUnderTest, BeforeAllCallback {
    private final String name;
    private final boolean redLock;
    private final Supplier<Topology> start;
    private Topology topology;

    private SharedRedis(String name, Supplier<Topology> start) {
        this.name = name;
        this.redLock = name.equals("redlock");
        this.start = start;
    }

    /**
     * @return one master
     */
    static SharedRedis standalone() {
        return new SharedRedis("standalone", () -> {
            LocalRedisServer node = LocalRedisServer.start();
            return new Topology(node, () -> List.of(node),
                    () -> Locksmith.builder().redisUri(node.uri()));
        });
    }

    /**
     * @return a master with one replica, every acquisition acknowledged by it ({@code syncReplicas(1)})
     */
    static SharedRedis replicated() {
        return new SharedRedis("replicated", () -> {
            ReplicatedRedis redis = ReplicatedRedis.start(1);
            return new Topology(redis, redis::nodes, () -> Locksmith.builder().redisUri(redis.master().uri())
                    .syncReplicas(1, Duration.ofMillis(500)));
        });
    }

    /**
     * @return a master and two replicas found through three Sentinels
     */
    static SharedRedis sentinel() {
        return new SharedRedis("sentinel", () -> {
            SentinelRedis redis = SentinelRedis.start();
            return new Topology(redis, redis::dataNodes, () -> Locksmith.builder().redisUri(redis.sentinelUri())
                    .mode(RedisMode.SENTINEL));
        });
    }

    /**
     * @return a cluster of three masters with a replica each
     */
    static SharedRedis cluster() {
        return new SharedRedis("cluster", () -> {
            RedisCluster redis = RedisCluster.start();
            return new Topology(redis, redis::nodes, () -> Locksmith.builder().redisUri(redis.seedsUri())
                    .mode(RedisMode.CLUSTER));
        });
    }

    /**
     * @return three independent masters for RedLock
     */
    static SharedRedis redLock() {
        return new SharedRedis("redlock", () -> {
            IndependentMasters redis = IndependentMasters.start(3);
            return new Topology(redis, redis::nodes, () -> Locksmith.builder().redisUri(redis.uris())
                    .mode(RedisMode.REDLOCK));
        });
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        topology = context.getRoot().getStore(ExtensionContext.Namespace.create(SharedRedis.class))
                .getOrComputeIfAbsent(name, key -> start.get(), Topology.class);
    }

    @Override
    public Locksmith.Builder builder() {
        return running().builder().get();
    }

    /**
     * Every node's keys, each once. With RedLock, a key that only a minority of the masters has and
     * that expires is left out: it is no hold (a hold exists while a majority has it), and a
     * master that answered an acquisition or a release too late keeps it until its lease runs out.
     */
    @Override
    public List<StoredKey> keys(String prefix) {
        Map<String, StoredKey> keys = new LinkedHashMap<>();
        Map<String, Integer> copies = new LinkedHashMap<>();
        List<LocalRedisServer> nodes = running().nodes().get();
        for (LocalRedisServer node : nodes) {
            if (!node.isRunning()) {
                continue;
            }
            for (Object key : (List<?>) RespClient.call(node.port(), "KEYS", prefix + "*")) {
                String name = key.toString();
                copies.merge(name, 1, Integer::sum);
                keys.computeIfAbsent(name, k -> new StoredKey(k,
                        Long.parseLong(RespClient.call(node.port(), "PTTL", k).toString())));
            }
        }
        return keys.values().stream()
                .filter(key -> !redLock || key.millisToLive() == -1 || copies.get(key.name()) > nodes.size() / 2)
                .toList();
    }

    private Topology running() {
        return Objects.requireNonNull(topology, "the " + name + " topology starts before the test class");
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * A started topology: what to close, its data nodes, and how Locksmith reaches it.
     */
    private record Topology(AutoCloseable servers, Supplier<List<LocalRedisServer>> nodes,
                            Supplier<Locksmith.Builder> builder) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            servers.close();
        }
    }
}
