package dev.locksmith.internal.lock;

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
final class LockSubscriptions {
    private final LockKeys keys;
    private final String managerId;
    private Subscription everyone;
    private Subscription own;
    private CompletionStage<Void> confirmed;
    private volatile boolean listening;

    LockSubscriptions(LockKeys keys, String managerId) {
        this.keys = keys;
        this.managerId = managerId;
    }

    /**
     * @param onMessage given every message of both channels, on the pub/sub thread
     * @return completes when Redis confirmed both subscriptions
     */
    CompletionStage<Void> listen(ReleaseChannels channels, Consumer<String> onMessage) {
        if (everyone == null) {
            everyone = channels.subscribe(keys.channel(), onMessage);
            Subscription address = channels.subscribe(keys.address(managerId), onMessage);
            own = address;
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
        return listening;
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
