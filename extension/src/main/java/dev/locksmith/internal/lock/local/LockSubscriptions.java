package dev.locksmith.internal.lock.local;

import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.lock.ring.ProcessRing;
import dev.locksmith.internal.redis.ChannelSubscription;
import dev.locksmith.internal.redis.ReleaseChannels;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The two pub/sub subscriptions by which this process hears of one lock: the lock's channel,
 * where a release wakes everyone ({@code *}), and the process's own channel for that lock, where
 * only this process hears offers of the lock and the fair queue's turns of its owners. Every
 * change takes the mutex of the lock's {@link LocalContention}; {@link #isListening()} reads
 * without it. Ending them takes this process out of the lock's ring as far as its threads know.
 */
public final class LockSubscriptions {
    private final ReentrantLock mutex;
    private final LockKeys keys;
    private final String managerId;
    private final Consumer<String> onMessage;
    private final ProcessRing ring;
    private volatile ChannelSubscription everyone;
    private volatile ChannelSubscription own;
    private CompletionStage<Void> confirmed;
    private volatile boolean listening;

    /**
     * @param onMessage given every message of both channels, on the pub/sub thread
     */
    LockSubscriptions(ReentrantLock mutex, LockKeys keys, String managerId, Consumer<String> onMessage,
                      ProcessRing ring) {
        this.mutex = mutex;
        this.keys = keys;
        this.managerId = managerId;
        this.onMessage = onMessage;
        this.ring = ring;
    }

    /**
     * Subscribes both channels, or, while that is under way or done, returns its confirmation. A
     * subscription that failed (Redis refused it, or did not answer) is asked for again here: the
     * next wait of any kind retries it instead of hearing the old failure for as long as the
     * lock stays contended.
     *
     * @return completes when Redis confirmed both subscriptions
     */
    public CompletionStage<Void> listen(ReleaseChannels channels) {
        mutex.lock();
        try {
            return subscribe(channels);
        } finally {
            mutex.unlock();
        }
    }

    private CompletionStage<Void> subscribe(ReleaseChannels channels) {
        if (everyone == null) {
            everyone = channels.subscribe(keys.channel(), onMessage);
            own = channels.subscribe(keys.address(managerId), onMessage);
            confirmed = null;
        }
        if (confirmed == null || confirmed.toCompletableFuture().isCompletedExceptionally()
                || (confirmed.toCompletableFuture().isDone() && !isListening())) {
            ChannelSubscription address = own;
            // The flag is set before the stage completes: a caller that awaited it sees it.
            confirmed = everyone.subscribed().thenCombine(address.subscribed(), (a, b) -> b)
                    .thenRun(() -> listening = own == address);
        }
        return confirmed;
    }

    /**
     * @return whether Redis confirmed that this process listens, on the lock's channel and its own
     */
    public boolean isListening() {
        ChannelSubscription channel = everyone;
        ChannelSubscription address = own;
        // A renewal that failed after a topology change or a reconnect makes it unknown again.
        return listening && channel != null && address != null && channel.isConfirmed() && address.isConfirmed();
    }

    /**
     * @return completes when Redis confirmed that this process no longer listens for this lock
     */
    public CompletionStage<Void> stop() {
        mutex.lock();
        try {
            ring.leave();
            return unsubscribe();
        } finally {
            mutex.unlock();
        }
    }

    private CompletionStage<Void> unsubscribe() {
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
