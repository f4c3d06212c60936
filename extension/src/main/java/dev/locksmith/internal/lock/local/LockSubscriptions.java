package dev.locksmith.internal.lock.local;

import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.redis.ReleaseChannels;
import dev.locksmith.internal.redis.ReleaseChannels.Subscription;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The two pub/sub subscriptions by which this process hears of one lock: the lock's channel,
 * where a release wakes everyone ({@code *}), and the process's own channel for that lock, where
 * only this process hears offers of the lock and the fair queue's turns of its owners. Guarded by
 * the mutex of the lock's {@link LocalContention}, except {@link #isListening()}.
 */
public final class LockSubscriptions {
    private final LockKeys keys;
    private final String managerId;
    private volatile Subscription everyone;
    private volatile Subscription own;
    private CompletionStage<Void> confirmed;
    private volatile boolean listening;

    LockSubscriptions(LockKeys keys, String managerId) {
        this.keys = keys;
        this.managerId = managerId;
    }

    /**
     * Subscribes both channels, or, while that is under way or done, returns its confirmation. A
     * subscription that failed (Redis refused it, or did not answer) is asked for again here: the
     * next wait of any kind retries it instead of hearing the old failure for as long as the
     * lock stays contended.
     *
     * @param onMessage given every message of both channels, on the pub/sub thread
     * @return completes when Redis confirmed both subscriptions
     */
    CompletionStage<Void> listen(ReleaseChannels channels, Consumer<String> onMessage) {
        if (everyone == null) {
            everyone = channels.subscribe(keys.channel(), onMessage);
            own = channels.subscribe(keys.address(managerId), onMessage);
            confirmed = null;
        }
        if (confirmed == null || confirmed.toCompletableFuture().isCompletedExceptionally()
                || (confirmed.toCompletableFuture().isDone() && !isListening())) {
            Subscription address = own;
            // The flag is set before the stage completes: a caller that awaited it sees it.
            confirmed = everyone.subscribed().thenCombine(address.subscribed(), (a, b) -> b)
                    .thenRun(() -> listening = own == address);
        }
        return confirmed;
    }

    /**
     * @return whether Redis confirmed that this process listens, on the lock's channel and its own
     */
    boolean isListening() {
        Subscription channel = everyone;
        Subscription address = own;
        // A renewal that failed after a topology change or a reconnect makes it unknown again.
        return listening && channel != null && address != null && channel.isConfirmed() && address.isConfirmed();
    }

    /**
     * @return completes when Redis confirmed that this process no longer listens for this lock
     */
    CompletionStage<Void> stop() {
        listening = false;
        if (everyone == null) {
            return CompletableFuture.completedFuture(null);
        }
        CompletionStage<Void> ended = everyone.end().thenCombine(own.end(), (a, b) -> b);
        everyone = null;
        own = null;
        confirmed = null;
        return ended;
    }
}
