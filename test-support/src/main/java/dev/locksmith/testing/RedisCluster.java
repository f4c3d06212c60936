package dev.locksmith.testing;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of three masters and three replicas (one each), every node a
 * {@link LocalRedisServer} with its own {@code nodes.conf} in its own directory, on free
 * loopback ports. The node timeout is 1 s, so a killed master is replaced in a few seconds.
 *
 * <pre>{@code
 * try (RedisCluster cluster = RedisCluster.start()) {
 *     RedisClusterClient.create(cluster.seedsUri()) ...
 *     LocalRedisServer promoted = cluster.failoverKillingMasterOf(cluster.slotOf("key"));
 * }
 * }</pre>
 */
public final class RedisCluster implements AutoCloseable {
    /** The number of hash slots. */
    public static final int SLOTS = 16384;

    private static final int MASTERS = 3;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);

    private final NodeGroup group;
    private final List<LocalRedisServer> nodes;

    private RedisCluster(NodeGroup group, List<LocalRedisServer> nodes) {
        this.group = group;
        this.nodes = List.copyOf(nodes);
    }

    /**
     * Starts six nodes, gives each of the first three a third of the slots, introduces them to
     * each other, makes each of the last three a replica of one master, and returns once every
     * node reports {@code cluster_state:ok}, all nodes agree on who serves which slot, and the
     * replicas are in sync.
     *
     * @return the running cluster
     * @throws IllegalStateException with every node's log if that takes more than 20 s; every
     *                               process started so far is stopped
     */
    public static RedisCluster start() {
        NodeGroup group = new NodeGroup();
        try {
            for (int i = 0; i < 2 * MASTERS; i++) {
                group.add(() -> LocalRedisServer.startClusterNode("--cluster-node-timeout", "1000",
                        // a replica may always take over, however long its link was down
                        "--cluster-replica-validity-factor", "0",
                        "--repl-diskless-sync-delay", "0"));
            }
            RedisCluster cluster = new RedisCluster(group, group.nodes());
            cluster.form();
            return cluster;
        } catch (RuntimeException e) {
            throw group.closeAfter(e);
        }
    }

    private void form() {
        for (int i = 0; i < MASTERS; i++) {
            LocalRedisServer master = nodes.get(i);
            // distinct epochs from the start, as redis-cli --cluster create sets them
            master.command("CLUSTER", "SET-CONFIG-EPOCH", Integer.toString(i + 1));
            master.command("CLUSTER", "ADDSLOTSRANGE", Integer.toString(i * SLOTS / MASTERS),
                    Integer.toString((i + 1) * SLOTS / MASTERS - 1));
        }
        ClusterView.Entry first = ClusterView.of(nodes.get(0)).myself();
        for (LocalRedisServer node : nodes.subList(1, nodes.size())) {
            node.command("CLUSTER", "MEET", "127.0.0.1", Integer.toString(first.port()), Integer.toString(first.busPort()));
        }
        Await.untilNothingPending("all six cluster nodes knowing each other", READY_TIMEOUT, () -> {
            for (LocalRedisServer node : nodes) {
                ClusterView view = ClusterView.of(node);
                if (view.entries().size() != nodes.size()
                        || view.entries().stream().anyMatch(ClusterView.Entry::isFailing)) {
                    return node + " sees " + view.entries();
                }
            }
            return null;
        }, group::describe);
        for (int i = 0; i < MASTERS; i++) {
            String masterId = ClusterView.of(nodes.get(i)).myself().id();
            nodes.get(MASTERS + i).command("CLUSTER", "REPLICATE", masterId);
        }
        awaitHealthy(READY_TIMEOUT);
    }

    /**
     * Waits until every running node reports {@code cluster_state:ok}, all of them agree on
     * which master serves which slot and see every running node as healthy, and every running
     * replica is in sync with its master.
     *
     * @param timeout how long to wait at most
     * @return how long it took
     * @throws IllegalStateException with every node's log after the timeout
     */
    public Duration awaitHealthy(Duration timeout) {
        return Await.untilNothingPending("a healthy cluster", timeout, this::unhealthy, group::describe);
    }

    private String unhealthy() {
        List<LocalRedisServer> running = running();
        List<ClusterView> views = running.stream().map(ClusterView::of).toList();
        for (int i = 0; i < running.size(); i++) {
            LocalRedisServer node = running.get(i);
            ClusterView view = views.get(i);
            String state = node.clusterInfo().get("cluster_state");
            if (!"ok".equals(state)) {
                return "cluster_state:" + state + " on " + node;
            }
            if (view.servedSlots() != SLOTS) {
                return view.servedSlots() + " slots served in the view of " + node;
            }
            if (!slotOwners(view).equals(slotOwners(views.get(0)))) {
                return node + " sees masters " + slotOwners(view) + ", " + running.get(0) + " sees "
                        + slotOwners(views.get(0));
            }
            for (LocalRedisServer other : running) {
                if (view.entryOf(other.port()).map(ClusterView.Entry::isFailing).orElse(true)) {
                    return node + " sees " + other + " as " + view.entryOf(other.port()).map(e -> e.flags().toString())
                            .orElse("unknown");
                }
            }
            ClusterView.Entry myself = view.myself();
            if (!myself.isMaster()) {
                ClusterView.Entry master = view.entries().stream().filter(e -> e.id().equals(myself.masterId()))
                        .findFirst().orElse(null);
                if (master == null || !node.isSyncedReplicaOf(nodeAt(master.port()))) {
                    return node + " is not in sync with its master " + master;
                }
            }
        }
        return null;
    }

    private static Map<Integer, String> slotOwners(ClusterView view) {
        return view.entries().stream().filter(ClusterView.Entry::isHealthyMaster)
                .collect(Collectors.toMap(ClusterView.Entry::port,
                        e -> e.slotRanges().stream().map(r -> r[0] + "-" + r[1]).collect(Collectors.joining(","))));
    }

    /**
     * @return {@code redis://127.0.0.1:p1,redis://127.0.0.1:p2,...}, every node, running or not
     */
    public String seedsUri() {
        return String.join(",", uris());
    }

    /**
     * @return every node's {@code redis://127.0.0.1:port}, in start order
     */
    public List<String> uris() {
        return nodes.stream().map(LocalRedisServer::uri).toList();
    }

    /**
     * @return all six nodes, the three first masters first, running or not
     */
    public List<LocalRedisServer> nodes() {
        return nodes;
    }

    /**
     * @param key a key
     * @return its hash slot, as a running node computes it ({@code CLUSTER KEYSLOT})
     */
    public int slotOf(String key) {
        return Integer.parseInt(anyRunning().command("CLUSTER", "KEYSLOT", key));
    }

    /**
     * @param slot a hash slot, 0 to 16383
     * @return the node that serves it, as the first running node sees it
     * @throws IllegalStateException if no healthy master serves it
     */
    public LocalRedisServer masterOfSlot(int slot) {
        ClusterView view = ClusterView.of(anyRunning());
        return nodeAt(view.ownerOf(slot).orElseThrow(() -> new IllegalStateException(
                "No healthy master serves slot " + slot + " in " + view.entries())).port());
    }

    /**
     * @param master a running master of this cluster
     * @return its replicas, running or not, as the master sees them
     */
    public List<LocalRedisServer> replicasOf(LocalRedisServer master) {
        ClusterView view = ClusterView.of(master);
        return view.replicasOf(view.myself().id()).stream().map(e -> nodeAt(e.port())).toList();
    }

    /**
     * Crashes (SIGKILL) the master of {@code slot} and returns once one of its replicas is
     * master of that slot and the cluster is {@linkplain #awaitHealthy healthy} again. Takes
     * about 2 to 4 s: one node timeout to suspect the master, gossip to agree it failed, then
     * the replica's election.
     *
     * @param slot a hash slot, 0 to 16383
     * @return the promoted replica
     * @throws IllegalStateException if the master has no running replica, or with every node's
     *                               log if the failover does not complete within 30 s
     */
    public LocalRedisServer failoverKillingMasterOf(int slot) {
        return failoverKilling(masterOfSlot(slot));
    }

    /**
     * Crashes (SIGKILL) a master and returns once one of its replicas took over its slots and
     * the cluster is {@linkplain #awaitHealthy healthy} again.
     *
     * @param master a running master that serves slots
     * @return the promoted replica
     * @throws IllegalStateException if {@code master} serves no slot or has no running replica,
     *                               or with every node's log if the failover does not complete within 30 s
     */
    public LocalRedisServer failoverKilling(LocalRedisServer master) {
        ClusterView.Entry entry = ClusterView.of(master).myself();
        if (!entry.isMaster() || entry.slotRanges().isEmpty()) {
            throw new IllegalStateException(master + " is no master serving slots: " + entry);
        }
        int slot = entry.slotRanges().get(0)[0];
        List<LocalRedisServer> replicas = ClusterView.of(master).replicasOf(entry.id()).stream()
                .map(e -> nodeAt(e.port())).filter(LocalRedisServer::isRunning).toList();
        if (replicas.isEmpty()) {
            throw new IllegalStateException(master + " has no running replica to promote");
        }
        master.kill();
        Await.until("a replica of " + master + " taking over slot " + slot, FAILOVER_TIMEOUT,
                () -> replicas.stream().anyMatch(r -> ClusterView.of(r).ownerOf(slot)
                        .map(owner -> owner.port() == r.port()).orElse(false)),
                group::describe);
        awaitHealthy(FAILOVER_TIMEOUT);
        return masterOfSlot(slot);
    }

    /**
     * Starts a killed node again on its port, with its {@code nodes.conf} but no data, and
     * returns once the cluster is {@linkplain #awaitHealthy healthy} with it: a master that
     * was replaced meanwhile comes back as a replica of its successor.
     *
     * @param node a node of this cluster that is not running
     * @throws IllegalStateException if it is running, or with every node's log if the cluster
     *                               is not healthy within 30 s
     */
    public void rejoin(LocalRedisServer node) {
        nodeAt(node.port()).restart();
        awaitHealthy(FAILOVER_TIMEOUT);
    }

    private LocalRedisServer nodeAt(int port) {
        return nodes.stream().filter(node -> node.port() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException("Port " + port + " is none of " + nodes));
    }

    private List<LocalRedisServer> running() {
        return nodes.stream().filter(LocalRedisServer::isRunning).toList();
    }

    private LocalRedisServer anyRunning() {
        return running().stream().findFirst()
                .orElseThrow(() -> new IllegalStateException("No node of the cluster is running"));
    }

    /**
     * @return every node's address, state and log tail, for error messages
     */
    public String describe() {
        return group.describe();
    }

    /**
     * Kills every node.
     */
    @Override
    public void close() {
        group.close();
    }
}
