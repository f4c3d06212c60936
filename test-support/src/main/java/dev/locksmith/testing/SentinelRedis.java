package dev.locksmith.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A master, two replicas and three Sentinels watching them as {@value #MASTER_NAME} (quorum 2,
 * down after 1 s, failover timeout 3 s), all on free loopback ports. Lettuce finds the master
 * through {@link #sentinelUri()}; {@link #failover()} crashes the master and returns once the
 * Sentinels promoted a replica. The Sentinels' periods are shortened with {@code SENTINEL DEBUG},
 * which a restarted Sentinel does not keep.
 *
 * <pre>{@code
 * try (SentinelRedis redis = SentinelRedis.start()) {
 *     RedisClient.create(redis.sentinelUri()).connect() ...
 *     LocalRedisServer promoted = redis.failover();
 * }
 * }</pre>
 */
public final class SentinelRedis implements AutoCloseable {
    /** The name the Sentinels monitor the master under. */
    public static final String MASTER_NAME = "mymaster";

    private static final int SENTINELS = 3;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);

    private final NodeGroup group;
    private final List<LocalRedisServer> dataNodes;
    private final List<LocalRedisServer> sentinels;

    private SentinelRedis(NodeGroup group, List<LocalRedisServer> dataNodes, List<LocalRedisServer> sentinels) {
        this.group = group;
        this.dataNodes = List.copyOf(dataNodes);
        this.sentinels = List.copyOf(sentinels);
    }

    /**
     * Starts the master and its replicas, waits until they are in sync, starts the Sentinels and
     * returns once each one names the master, sees both replicas and both other Sentinels, and
     * confirms that quorum and failover authorization can be reached.
     *
     * @return the running topology
     * @throws IllegalStateException with every node's log if it is not ready within 20 s; every
     *                               process started so far is stopped
     */
    public static SentinelRedis start() {
        NodeGroup group = new NodeGroup();
        try {
            ReplicatedRedis data = ReplicatedRedis.startIn(group, 2);
            List<LocalRedisServer> sentinels = new ArrayList<>();
            for (int i = 0; i < SENTINELS; i++) {
                LocalRedisServer sentinel = group.add(() -> LocalRedisServer.startSentinel(config(data.master().port())));
                shortenPeriods(sentinel);
                sentinels.add(sentinel);
            }
            SentinelRedis topology = new SentinelRedis(group, data.nodes(), sentinels);
            Await.until("Sentinels watching " + data.master() + " with 2 replicas and 3 Sentinels", READY_TIMEOUT,
                    () -> sentinels.stream().allMatch(s -> topology.isReady(s, data.master())), group::describe);
            return topology;
        } catch (RuntimeException e) {
            throw group.closeAfter(e);
        }
    }

    private static List<String> config(int masterPort) {
        return List.of(
                "sentinel resolve-hostnames no",
                "sentinel announce-ip 127.0.0.1",
                "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + masterPort + " 2",
                "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                "sentinel failover-timeout " + MASTER_NAME + " 3000",
                "sentinel parallel-syncs " + MASTER_NAME + " 2");
    }

    // Hello messages every 0.5 s instead of 2 s and INFO every second instead of ten: the
    // Sentinels find each other and a promoted replica in well under a second. A CI machine
    // short of CPU can starve a process for seconds, which Sentinel takes for a clock jump
    // ("tilt") and then stays passive for 30 s; a higher trigger and 3 s tilts keep it acting.
    private static void shortenPeriods(LocalRedisServer sentinel) {
        RespClient.call(sentinel.port(), "SENTINEL", "DEBUG", "publish-period", "500", "info-period", "1000",
                "tilt-trigger", "5000", "tilt-period", "3000");
    }

    private boolean isReady(LocalRedisServer sentinel, LocalRedisServer master) {
        return masterPortSeenBy(sentinel) == master.port()
                && sentinelList(sentinel, "REPLICAS").size() == 2
                && sentinelList(sentinel, "SENTINELS").size() == SENTINELS - 1
                && String.valueOf(RespClient.call(sentinel.port(), "SENTINEL", "CKQUORUM", MASTER_NAME)).startsWith("OK");
    }

    private static List<?> sentinelList(LocalRedisServer sentinel, String what) {
        return (List<?>) RespClient.call(sentinel.port(), "SENTINEL", what, MASTER_NAME);
    }

    private static int masterPortSeenBy(LocalRedisServer sentinel) {
        List<?> address = (List<?>) RespClient.call(sentinel.port(), "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
        return Integer.parseInt(String.valueOf(address.get(1)));
    }

    /**
     * @return {@code redis-sentinel://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3#mymaster}, which
     *         Lettuce's {@code RedisURI.create} reads as three Sentinels and a master name
     */
    public String sentinelUri() {
        return "redis-sentinel://" + sentinels.stream().map(s -> "127.0.0.1:" + s.port())
                .collect(Collectors.joining(",")) + "#" + MASTER_NAME;
    }

    /**
     * @return the data node the first answering Sentinel names as master now
     * @throws IllegalStateException if no Sentinel answers or the named node is not one of this topology's
     */
    public LocalRedisServer master() {
        RuntimeException lastError = null;
        for (LocalRedisServer sentinel : runningSentinels()) {
            try {
                return dataNode(masterPortSeenBy(sentinel));
            } catch (RuntimeException e) {
                lastError = e;
            }
        }
        throw new IllegalStateException("No Sentinel names a master of this topology\n" + describe(), lastError);
    }

    private LocalRedisServer dataNode(int port) {
        return dataNodes.stream().filter(node -> node.port() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException("Port " + port + " is none of " + dataNodes));
    }

    /**
     * @return the running data nodes other than the current master
     */
    public List<LocalRedisServer> replicas() {
        LocalRedisServer master = master();
        return dataNodes.stream().filter(node -> node != master && node.isRunning()).toList();
    }

    /**
     * @return the master and replicas the topology started with, running or not, in start order
     */
    public List<LocalRedisServer> dataNodes() {
        return dataNodes;
    }

    /**
     * @return the three Sentinels
     */
    public List<LocalRedisServer> sentinels() {
        return sentinels;
    }

    /**
     * Crashes the current master (SIGKILL) and returns once every running Sentinel names the
     * same promoted replica as master, that node says it is master, and the other running
     * replicas replicate it. Takes about 2 to 4 s: one second to mark the master down, then the
     * Sentinels' election.
     *
     * @return the promoted node
     * @throws IllegalStateException with every node's log if that does not happen within 30 s
     */
    public LocalRedisServer failover() {
        LocalRedisServer old = master();
        old.kill();
        Await.until("Sentinels promoting a replica of " + old, FAILOVER_TIMEOUT, () -> {
            List<Integer> named = runningSentinels().stream().map(SentinelRedis::masterPortSeenBy).distinct().toList();
            return named.size() == 1 && named.get(0) != old.port()
                    && "master".equals(dataNode(named.get(0)).info("replication").get("role"));
        }, group::describe);
        LocalRedisServer promoted = master();
        Await.until("replicas following " + promoted, FAILOVER_TIMEOUT,
                () -> dataNodes.stream().filter(node -> node != promoted && node.isRunning())
                        .allMatch(node -> node.isSyncedReplicaOf(promoted)),
                group::describe);
        return promoted;
    }

    private List<LocalRedisServer> runningSentinels() {
        return sentinels.stream().filter(LocalRedisServer::isRunning).toList();
    }

    /**
     * @return every node's address, state and log tail, for error messages
     */
    public String describe() {
        return group.describe();
    }

    /**
     * Kills every Sentinel and data node.
     */
    @Override
    public void close() {
        group.close();
    }
}
