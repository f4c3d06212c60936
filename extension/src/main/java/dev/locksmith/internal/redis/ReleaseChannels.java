package dev.locksmith.internal.redis;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The pub/sub channels this process listens on, shared: however many waiters a channel has,
 * it is subscribed once, and unsubscribed when its last listener leaves.
 */
public final class ReleaseChannels {
    private final StatefulRedisPubSubConnection<String, String> connection;
    private final Map<String, Channel> channels = new HashMap<>();

    /**
     * @param connection the pub/sub connection; its messages are dispatched to the listeners here
     */
    public ReleaseChannels(StatefulRedisPubSubConnection<String, String> connection) {
        this.connection = connection;
        connection.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                dispatch(channel, message);
            }
        });
    }

    /**
     * Starts listening. The returned stage completes once Redis confirmed the subscription, so a
     * message published after that reaches {@code onMessage}.
     *
     * @param channel   the channel
     * @param onMessage given each message, on Lettuce's I/O thread; must not block
     * @return the subscription, to {@link Subscription#close() close} when done
     */
    public synchronized Subscription subscribe(String channel, Consumer<String> onMessage) {
        Channel existing = channels.get(channel);
        if (existing == null) {
            existing = new Channel(connection.async().subscribe(channel).toCompletableFuture());
            channels.put(channel, existing);
        }
        existing.listeners.add(onMessage);
        return new Subscription(this, channel, onMessage, existing.subscribed);
    }

    /**
     * @return how many channels are subscribed now
     */
    public synchronized int activeChannels() {
        return channels.size();
    }

    private synchronized void unsubscribe(String channel, Consumer<String> onMessage) {
        Channel existing = channels.get(channel);
        if (existing == null) {
            return;
        }
        existing.listeners.remove(onMessage);
        if (existing.listeners.isEmpty()) {
            channels.remove(channel);
            // Commands on one connection run in order, so a later SUBSCRIBE of the same channel
            // is applied after this UNSUBSCRIBE.
            connection.async().unsubscribe(channel);
        }
    }

    @SuppressWarnings("unchecked")
    private void dispatch(String channel, String message) {
        Consumer<String>[] listeners;
        synchronized (this) {
            Channel existing = channels.get(channel);
            if (existing == null) {
                return;
            }
            listeners = existing.listeners.toArray(Consumer[]::new);
        }
        for (Consumer<String> listener : listeners) {
            listener.accept(message);
        }
    }

    private static final class Channel {
        final CompletableFuture<Void> subscribed;
        final Set<Consumer<String>> listeners = Collections.newSetFromMap(new IdentityHashMap<>());

        Channel(CompletableFuture<Void> subscribed) {
            this.subscribed = subscribed;
        }
    }

    /**
     * One listener on one channel.
     */
    public static final class Subscription implements AutoCloseable {
        private final ReleaseChannels owner;
        private final String channel;
        private final Consumer<String> onMessage;
        private final CompletionStage<Void> subscribed;
        private boolean closed;

        private Subscription(ReleaseChannels owner, String channel, Consumer<String> onMessage,
                             CompletionStage<Void> subscribed) {
            this.owner = owner;
            this.channel = channel;
            this.onMessage = onMessage;
            this.subscribed = subscribed;
        }

        /**
         * @return completes when Redis has confirmed the subscription
         */
        public CompletionStage<Void> subscribed() {
            return subscribed;
        }

        /**
         * Stops listening; the channel is unsubscribed when this was its last listener.
         */
        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                owner.unsubscribe(channel, onMessage);
            }
        }
    }
}
