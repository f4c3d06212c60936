package dev.locksmith.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One master and its replicas ({@code --replicaof}), each a {@link LocalRedisServer} on a free
 * loopback port, with no Sentinel: when the master dies nobody promotes a replica. Replication
 * is asynchronous, as in production; a test that needs a write on the replicas sends
 * {@code WAIT}.
 *
 * <pre>{@code
 * try (ReplicatedRedis redis = ReplicatedRedis.start(2)) {
 *     RedisClient.create(redis.master().uri()) ...
 *     redis.killMaster();
 * }
 * }</pre>
 */
public final class ReplicatedRedis implements AutoCloseable {
    static final Duration SYNC_TIMEOUT = Duration.ofSeconds(15);

    private final NodeGroup group;
    private final LocalRedisServer master;
    private final List<LocalRedisServer> replicas;

    private ReplicatedRedis(NodeGroup group, LocalRedisServer master, List<LocalRedisServer> replicas) {
        this.group = group;
        this.master = master;
        this.replicas = List.copyOf(replicas);
    }

    /**
     * Starts a master and {@code replicas} replicas, and returns once every replica has
     * finished its first sync and reports {@code master_link_status:up}.
     *
     * @param replicas how many replicas, one or more
     * @return the running topology
     * @throws IllegalStateException with every node's log if the replicas are not in sync within 15 s;
     *                               every process started so far is stopped
     */
    public static ReplicatedRedis start(int replicas) {
        if (replicas < 1) {
            throw new IllegalArgumentException("A replicated topology needs one replica or more, not " + replicas);
        }
        NodeGroup group = new NodeGroup();
        try {
            return startIn(group, replicas);
        } catch (RuntimeException e) {
            throw group.closeAfter(e);
        }
    }

    /**
     * Starts the topology's nodes in {@code group}, which the caller closes on failure.
     */
    static ReplicatedRedis startIn(NodeGroup group, int replicas) {
        // Diskless sync without its default 5 s delay: the replicas are in sync in milliseconds.
        LocalRedisServer master = group.add(() -> LocalRedisServer.start("--repl-diskless-sync", "yes",
                "--repl-diskless-sync-delay", "0"));
        for (int i = 0; i < replicas; i++) {
            group.add(() -> LocalRedisServer.start("--replicaof", "127.0.0.1", Integer.toString(master.port()),
                    "--repl-diskless-sync-delay", "0"));
        }
        List<LocalRedisServer> nodes = group.nodes();
        ReplicatedRedis topology = new ReplicatedRedis(group, master, nodes.subList(nodes.indexOf(master) + 1,
                nodes.size()));
        topology.awaitReplicasInSync();
        topology.awaitWritesAcknowledged();
        return topology;
    }

    /**
     * Waits until a write to the master is acknowledged ({@code WAIT}) by every replica, as a
     * client with {@code syncReplicas} needs from its first acquisition on: a replica whose link
     * is up may not acknowledge yet right after its first sync.
     */
    private void awaitWritesAcknowledged() {
        String expected = Integer.toString(replicas.size());
        String key = "replicated-redis:ready";
        Await.until("a write acknowledged by " + expected + " replica(s) of " + master, SYNC_TIMEOUT,
                () -> expected.equals(String.valueOf(RespClient.calls(master.port(), List.of(
                        new String[] {"SET", key, "1"}, new String[] {"WAIT", expected, "500"},
                        new String[] {"DEL", key})).get(1))),
                group::describe);
    }

    /**
     * Waits until every running replica reports its link to the master up and no sync in
     * progress, for instance after a replica was restarted.
     *
     * @return how long it took
     * @throws IllegalStateException with every node's log after 15 s
     */
    public Duration awaitReplicasInSync() {
        return Await.until("replicas in sync with " + master, SYNC_TIMEOUT,
                () -> replicas.stream().filter(LocalRedisServer::isRunning).allMatch(r -> r.isSyncedReplicaOf(master)),
                group::describe);
    }

    /**
     * @return the master the topology started with (it stays the master: nothing promotes a replica)
     */
    public LocalRedisServer master() {
        return master;
    }

    /**
     * @return the replicas, in start order
     */
    public List<LocalRedisServer> replicas() {
        return replicas;
    }

    /**
     * @param index from 0
     * @return that replica
     */
    public LocalRedisServer replica(int index) {
        return replicas.get(index);
    }

    /**
     * @return the master first, then the replicas
     */
    public List<LocalRedisServer> nodes() {
        List<LocalRedisServer> nodes = new ArrayList<>();
        nodes.add(master);
        nodes.addAll(replicas);
        return List.copyOf(nodes);
    }

    /**
     * Crashes the master (SIGKILL): writes it acknowledged but had not yet sent are lost, and
     * the replicas keep serving reads of what they had.
     */
    public void killMaster() {
        master.kill();
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
