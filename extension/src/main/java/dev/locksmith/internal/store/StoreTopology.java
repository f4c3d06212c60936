package dev.locksmith.internal.store;

import dev.locksmith.internal.redis.ReleaseChannels;

/**
 * What a store's topology is, as the lock algorithms need to know it: whether one node decides
 * who holds a lock, whether tokens must be told to other nodes, whether locks live on shards, which
 * keys one call may touch together, and where releases are heard.
 */
public interface StoreTopology {

    /** The command that announces a release to every node's subscribers. */
    String PUBLISH = "publish";
    /** The command that announces a release on the lock's own shard, in a cluster. */
    String SHARDED_PUBLISH = "spublish";

    /**
     * @return true when a fencing token must still be told to other nodes before anyone may rely
     *         on it (RedLock), false when the node that made it is the only one (one deployment)
     */
    boolean tokensNeedPublishing();

    /**
     * @return true when one node alone says who holds a lock (one deployment), so that a release
     *         may pass the lock straight to another owner; false when several masters each keep
     *         their own state (RedLock)
     */
    boolean oneNodeDecides();

    /**
     * @return whether the locks live on shards (a cluster), so that releases travel on each lock's
     *         own shard ({@code SPUBLISH}, {@code SSUBSCRIBE}) instead of on every node
     */
    boolean sharded();

    /**
     * @return the pub/sub channels on which releases arrive
     */
    ReleaseChannels channels();

    /**
     * @return which keys one script call may touch together: equal numbers, same group
     */
    int partitionOf(String key);

    /**
     * @return the command scripts announce releases with: {@code spublish} where the store is
     *         {@link #sharded()}, {@code publish} elsewhere
     */
    default String publishCommand() {
        return sharded() ? SHARDED_PUBLISH : PUBLISH;
    }
}
