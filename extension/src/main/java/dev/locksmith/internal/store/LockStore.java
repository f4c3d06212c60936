package dev.locksmith.internal.store;

import dev.locksmith.RedisMode;
import dev.locksmith.internal.redis.RedisEndpoint;
import dev.locksmith.internal.redis.RedisResources;
import dev.locksmith.internal.redis.ReleaseChannels;
import dev.locksmith.internal.redis.ScriptCall;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Where locks live: one Redis deployment ({@link SingleNodeStore}), or independent masters
 * agreeing by majority ({@link RedLockStore}). Each operation says what it means for a lock,
 * so a store of several nodes knows how to combine their answers.
 */
public interface LockStore extends AutoCloseable {

    /** The command that announces a release to every node's subscribers. */
    String PUBLISH = "publish";
    /** The command that announces a release on the lock's own shard, in a cluster. */
    String SHARDED_PUBLISH = "spublish";

    /**
     * Connects to one Redis deployment: a master, Sentinel or a cluster. RedLock's independent
     * masters are {@code redlock.RedLockStore}'s.
     *
     * @param resources      the manager's threads, shared by every connection
     * @param mode           how to reach Redis: not {@link RedisMode#REDLOCK}
     * @param uris           the configured URIs
     * @param commandTimeout how long one command may take
     * @return the connected store
     * @throws dev.locksmith.LockException if Redis cannot be reached
     * @throws IllegalArgumentException    for {@link RedisMode#REDLOCK}
     */
    static LockStore connectDeployment(RedisResources resources, RedisMode mode, List<RedisURI> uris,
                                       Duration commandTimeout) {
        if (mode == RedisMode.REDLOCK) {
            throw new IllegalArgumentException("RedLock's masters are no one deployment; connect them with RedLockStore");
        }
        return new SingleNodeStore(RedisEndpoint.connect(resources, mode, uris, commandTimeout));
    }

    /**
     * One attempt to acquire. The call's KEYS[2] is the fencing counter.
     *
     * @param acquisition answers {1, fencing token} or {0, ms until the lock may be free}
     * @param undo        removes a grant this attempt made, where the attempt as a whole failed
     * @param leaseMillis the lease asked for; a grant that used it up while being gathered fails
     * @return {1, fencing token} when acquired, {0, ms to wait} when not
     */
    CompletionStage<List<Long>> acquire(ScriptCall acquisition, ScriptCall undo, long leaseMillis);

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
     * Makes a token handed out by {@link #acquire} known where later acquisitions look, so that
     * they get larger ones.
     *
     * @param fenceKey        the fencing counter
     * @param token           the token
     * @param lifetimeMillis  how long a counter lives
     * @return completes once enough nodes know it
     * @throws dev.locksmith.LockException (in the stage) when too few nodes could be told
     */
    CompletionStage<Void> publishToken(String fenceKey, long token, long lifetimeMillis);

    /**
     * A change to an existing hold (release, re-entry).
     *
     * @param call       answers a number
     * @param lostAnswer the number that means "this hold is gone"
     * @return the answer, or {@code lostAnswer} when the hold is gone
     */
    CompletionStage<Long> update(ScriptCall call, long lostAnswer);

    /**
     * @param call the batch renewal, answering one 1 (renewed) or 0 (gone) per key
     * @return one 1 or 0 per key
     */
    CompletionStage<List<Long>> renew(ScriptCall call);

    /**
     * Runs a call that must reach every node it can (force release, giving up a wait).
     *
     * @return the largest answer
     */
    CompletionStage<Long> everywhere(ScriptCall call);

    /**
     * Runs a read-only call that answers a list of texts on every node it can reach.
     *
     * @return every text any node answered, each once
     */
    CompletionStage<List<String>> askEveryNode(ScriptCall call);

    /**
     * @return a string key's value, or null; with several nodes, a value whose part before the
     *         first {@code |} (a lock's owner) a majority agrees on
     */
    CompletionStage<String> value(String key);

    /**
     * @return the fields of a hash, as the deployment agrees on them
     */
    CompletionStage<List<String>> hashFields(String key);

    /**
     * @return the remaining time to live in ms, negative when the key has none or is gone
     */
    CompletionStage<Long> timeToLive(String key);

    /**
     * Waits until {@code replicas} replicas acknowledged this process's writes to the node that
     * holds {@code key} (in a cluster, the key's master).
     *
     * @param key a key the caller just wrote
     * @return how many acknowledged
     */
    CompletionStage<Long> awaitReplicas(String key, int replicas, long timeoutMillis);

    /**
     * @return completes when the deployment answers a PING (a majority of masters, for RedLock)
     */
    CompletionStage<Void> ping();

    /**
     * @return whether the locks live on shards (a cluster), so that releases travel on each lock's
     *         own shard ({@code SPUBLISH}, {@code SSUBSCRIBE}) instead of on every node
     */
    boolean sharded();

    /**
     * @return the command scripts announce releases with: {@code spublish} where the store is
     *         {@link #sharded()}, {@code publish} elsewhere
     */
    default String publishCommand() {
        return sharded() ? SHARDED_PUBLISH : PUBLISH;
    }

    /**
     * @return the pub/sub channels on which releases arrive
     */
    ReleaseChannels channels();

    /**
     * @return which keys one script call may touch together: equal numbers, same group
     */
    int partitionOf(String key);

    /**
     * @return the mode and addresses, without secrets
     */
    String description();

    @Override
    void close();
}
