package dev.locksmith.internal.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * One listener on one channel of {@link ReleaseChannels}.
 */
public final class ChannelSubscription implements AutoCloseable {
    private final ReleaseChannels owner;
    private final String channel;
    private final ReleaseChannels.Channel subscribedChannel;
    private final Consumer<String> onMessage;
    private boolean closed;

    ChannelSubscription(ReleaseChannels owner, String channel, ReleaseChannels.Channel subscribedChannel,
                 Consumer<String> onMessage) {
        this.owner = owner;
        this.channel = channel;
        this.subscribedChannel = subscribedChannel;
        this.onMessage = onMessage;
    }

    /**
     * @return whether Redis confirmed the channel's latest subscription, and no renewal of it
     *         failed since; never blocks
     */
    public boolean isConfirmed() {
        CompletableFuture<Void> latest = subscribedChannel.subscribed;
        return latest.isDone() && !latest.isCompletedExceptionally();
    }

    /**
     * Asks for the subscription's confirmation; when the last SUBSCRIBE of the channel failed,
     * this sends it again.
     *
     * @return completes when Redis has confirmed the subscription, or exceptionally with why
     *         this try did not
     */
    public CompletionStage<Void> subscribed() {
        return owner.confirmation(channel);
    }

    /**
     * Stops listening; the channel is unsubscribed when this was its last listener.
     */
    @Override
    public void close() {
        end();
    }

    /**
     * Stops listening, as {@link #close()}.
     *
     * @return completes when Redis confirmed that this process no longer listens on the
     *         channel (at once when other listeners here keep it)
     */
    public synchronized CompletionStage<Void> end() {
        if (closed) {
            return CompletableFuture.completedFuture(null);
        }
        closed = true;
        return owner.unsubscribe(channel, onMessage);
    }
}
