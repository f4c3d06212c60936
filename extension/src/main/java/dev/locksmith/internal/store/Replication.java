package dev.locksmith.internal.store;

import java.util.concurrent.CompletionStage;

/**
 * How a store makes a write durable beyond the node that took it: waiting for replicas to
 * acknowledge it.
 */
public interface Replication {
    /**
     * Waits until {@code replicas} replicas acknowledged this process's writes to the node that
     * holds {@code key} (in a cluster, the key's master).
     *
     * @param key a key the caller just wrote
     * @return how many acknowledged
     */
    CompletionStage<Long> awaitReplicas(String key, int replicas, long timeoutMillis);

}
