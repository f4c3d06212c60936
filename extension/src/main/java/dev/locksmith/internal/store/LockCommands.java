package dev.locksmith.internal.store;

import dev.locksmith.internal.redis.ScriptCall;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The commands a lock sends to its store, each saying what it means for a lock (an acquisition,
 * a change to a hold, a renewal, a call for every node, a read), so that a store of several nodes
 * knows how to combine their answers.
 */
public interface LockCommands {
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
     * @return completes when the deployment answers a PING (a majority of masters, for RedLock)
     */
    CompletionStage<Void> ping();

}
