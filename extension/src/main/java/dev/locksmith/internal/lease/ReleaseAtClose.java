package dev.locksmith.internal.lease;

import dev.locksmith.LockException;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockStore;
import dev.locksmith.internal.store.RedisReplies;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Releases the holds a closing manager still has, every one sent before any answer is awaited; a
 * hold Redis cannot be asked to drop expires with its lease. Runs once, on the closing thread.
 */
final class ReleaseAtClose {
    private static final Logger LOG = System.getLogger(ReleaseAtClose.class.getName());

    private final LockStore store;
    private final RedisReplies replies;
    private final HoldTable holds;

    ReleaseAtClose(LockStore store, RedisReplies replies, HoldTable holds) {
        this.store = store;
        this.replies = replies;
        this.holds = holds;
    }

    /**
     * Releases {@code left}, removes each from the table and tells its observers that it ended.
     */
    void release(List<Hold> left) {
        for (Hold hold : left) {
            awaitConfirmation(hold);
        }
        Map<Hold, CompletionStage<Long>> releases = new LinkedHashMap<>();
        for (Hold hold : left) {
            ScriptCall release = HoldCalls.releaseAll(hold.keys(), hold.field(), hold.expiryField());
            try {
                releases.put(hold, store.everywhere(release));
            } catch (RuntimeException e) {
                releases.put(hold, CompletableFuture.failedFuture(e));
            }
        }
        for (Map.Entry<Hold, CompletionStage<Long>> release : releases.entrySet()) {
            try {
                replies.await(release.getValue(), "Releasing the " + release.getKey() + " on close");
            } catch (LockException e) {
                LOG.log(Level.WARNING, "Could not release the " + release.getKey() + " on close; it expires with its"
                        + " lease", e);
            }
            holds.remove(release.getKey());
            release.getKey().observeEnd();
        }
    }

    /**
     * A release sent before a grant's confirmation could run before it (a confirmation Redis
     * answered {@code NOSCRIPT} is sent again), leaving the lock taken for a lease by a closed manager.
     */
    private void awaitConfirmation(Hold hold) {
        if (hold.confirmation().isDone()) {
            return;
        }
        try {
            replies.await(hold.confirmation(), "Confirming the grant of the " + hold.description());
        } catch (LockException e) {
            LOG.log(Level.WARNING, "Closing: the confirmation of the " + hold + " did not come; releasing it all the"
                    + " same, or it expires with its lease", e);
        }
    }
}
