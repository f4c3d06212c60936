package dev.locksmith.internal.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * How {@link RedisEndpoint#awaitReplicas} reaches the node that received a key's writes: the
 * shared connection of a single server, or, in a cluster, the connection to the key's master.
 */
@FunctionalInterface
interface ReplicaWait {

    /**
     * @return how many replicas acknowledged the writes to {@code key}'s master within {@code timeoutMillis}
     */
    CompletionStage<Long> await(String key, int replicas, long timeoutMillis);

    /**
     * A cluster connection sends {@code WAIT}, which names no key, to a node of its choice, which
     * counts its replicas' copies of nothing this connection wrote. The node connection by host
     * and port is the one the cluster connection routes the slot's writes over.
     */
    static ReplicaWait onMasterOf(StatefulRedisClusterConnection<String, String> connection) {
        return (key, replicas, timeoutMillis) -> {
            int slot = SlotHash.getSlot(key);
            RedisClusterNode master = connection.getPartitions().getMasterBySlot(slot);
            if (master == null) {
                return CompletableFuture.failedFuture(new RedisException("No master serves slot " + slot + " of " + key
                        + " in the topology the client knows; it is learning the new one"));
            }
            return connection.getConnectionAsync(master.getUri().getHost(), master.getUri().getPort())
                    .thenCompose(node -> node.async().waitForReplication(replicas, timeoutMillis));
        };
    }
}
