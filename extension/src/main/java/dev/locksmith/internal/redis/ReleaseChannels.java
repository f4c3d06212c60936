package dev.locksmith.internal.redis;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The pub/sub channels this process listens on, shared: however many waiters a channel has,
 * it is subscribed once, and unsubscribed when its last listener leaves. With several
 * independent servers (RedLock) a channel is subscribed on each, and a message from any of
 * them is delivered. In a cluster the channels are sharded ({@code SSUBSCRIBE}): a release
 * travels only to the lock's own shard, and the subscriptions are renewed after every topology
 * change, because a failover silently drops them.
 *
 * <p>A subscription Redis refused or did not confirm (an error answer, a timeout, a dropped
 * connection) is not kept as failed: the next listener that asks for its confirmation
 * ({@link ChannelSubscription#subscribed()}), and the next topology change, subscribe the channel again.
 */
public final class ReleaseChannels {
    /** The message that wakes every waiter of a channel: a release to everyone, or a resubscription. */
    public static final String EVERYONE = "*";
    private static final Logger LOG = System.getLogger(ReleaseChannels.class.getName());

    private final List<StatefulRedisPubSubConnection<String, String>> connections;
    private final int confirmationsNeeded;
    private final boolean sharded;
    private final Map<String, Channel> channels = new HashMap<>();

    /**
     * @param connections         one pub/sub connection per server reachable now
     * @param confirmationsNeeded how many servers must confirm a subscription before it counts as
     *                            made: 1 for one deployment, a majority of all masters for RedLock
     * @param sharded             true to use sharded pub/sub (a cluster), false for classic channels
     */
    public ReleaseChannels(List<StatefulRedisPubSubConnection<String, String>> connections, int confirmationsNeeded,
                           boolean sharded) {
        this.connections = new CopyOnWriteArrayList<>();
        this.confirmationsNeeded = confirmationsNeeded;
        this.sharded = sharded;
        connections.forEach(this::listenOn);
    }

    /**
     * Adds the connection of a server that became reachable (a RedLock master that was down when
     * the manager started), and subscribes it to every active channel.
     *
     * @param connection the server's pub/sub connection
     */
    public void join(StatefulRedisPubSubConnection<String, String> connection) {
        listenOn(connection);
        String[] active;
        synchronized (this) {
            active = channels.keySet().toArray(String[]::new);
        }
        if (active.length > 0) {
            subscribe(connection, active).whenComplete((ok, failure) -> {
                if (failure != null) {
                    LOG.log(Level.WARNING, "Subscribing a server that came back to " + active.length + " release"
                            + " channel(s) failed; its releases reach waiters through the others: " + failure);
                }
            });
        }
    }

    private void listenOn(StatefulRedisPubSubConnection<String, String> connection) {
        connection.addListener(new RedisPubSubAdapter<>() {
            private final Set<String> confirmed = ConcurrentHashMap.newKeySet();

            @Override
            public void message(String channel, String message) {
                dispatch(channel, message);
            }

            @Override
            public void smessage(String channel, String message) {
                dispatch(channel, message);
            }

            @Override
            public void subscribed(String channel, long count) {
                confirmedAgain(channel);
            }

            @Override
            public void ssubscribed(String channel, long count) {
                confirmedAgain(channel);
            }

            @Override
            public void unsubscribed(String channel, long count) {
                confirmed.remove(channel);
            }

            @Override
            public void sunsubscribed(String channel, long count) {
                confirmed.remove(channel);
            }

            /*
             * Lettuce subscribes its channels again after a reconnect, and the messages published
             * while the connection was down are lost: a waiter must ask Redis again, as after a
             * release to everyone.
             */
            private void confirmedAgain(String channel) {
                if (!confirmed.add(channel)) {
                    dispatch(channel, EVERYONE);
                }
            }
        });
        connections.add(connection);
    }

    /**
     * Subscribes every active channel again. After a cluster failover the promoted master has
     * none of the failed master's sharded subscriptions, and nothing tells the client; renewing
     * them on each topology change keeps waiters hearing releases. With a single server it runs
     * after each reconnect of the pub/sub connection, where Lettuce's own resubscription only
     * logs a refusal. A renewal that fails makes the channels count as not subscribed, so the
     * next wait of each subscribes again. Waiters also wake when the holder's lease runs out, so
     * a release missed meanwhile costs time, not correctness.
     */
    public void renewSubscriptions() {
        List<String> active;
        synchronized (this) {
            // A subscription that failed is asked for afresh, so its listeners see it confirmed.
            channels.forEach((name, channel) -> retryIfFailed(name, channel));
            active = List.copyOf(channels.keySet());
        }
        if (active.isEmpty()) {
            return;
        }
        String[] all = active.toArray(String[]::new);
        for (StatefulRedisPubSubConnection<String, String> connection : connections) {
            subscribe(connection, all).whenComplete((ok, failure) -> {
                if (failure != null) {
                    // Forgotten before the warning: a wait that starts once it is logged subscribes again.
                    forgetConfirmations(all, failure);
                    LOG.log(Level.WARNING, "Renewing " + all.length + " release subscription(s) failed; waiters fall back"
                            + " to the holders' leases, and the next wait of each lock subscribes again: " + failure);
                }
            });
        }
    }

    /**
     * A renewal failed on a server whose confirmation counts: the channels are no longer known to
     * be subscribed, so the next wait of each asks for them again instead of trusting the old
     * confirmation.
     */
    private synchronized void forgetConfirmations(String[] channelNames, Throwable failure) {
        if (connections.size() - 1 >= confirmationsNeeded) {
            return; // the other servers still carry the messages
        }
        for (String name : channelNames) {
            Channel channel = channels.get(name);
            if (channel != null && channel.subscribed.isDone()) {
                channel.subscribed = CompletableFuture.failedFuture(failure);
            }
        }
    }

    private CompletionStage<Void> subscribe(StatefulRedisPubSubConnection<String, String> connection,
                                            String... channelNames) {
        return sharded ? connection.async().ssubscribe(channelNames) : connection.async().subscribe(channelNames);
    }

    /**
     * Starts listening. The returned stage completes once Redis confirmed the subscription, so a
     * message published after that reaches {@code onMessage}.
     *
     * @param channel   the channel
     * @param onMessage given each message, on Lettuce's I/O thread; must not block
     * @return the subscription, to {@link ChannelSubscription#close() close} when done
     */
    public synchronized ChannelSubscription subscribe(String channel, Consumer<String> onMessage) {
        Channel existing = channels.get(channel);
        if (existing == null) {
            existing = new Channel(subscribeEverywhere(channel));
            channels.put(channel, existing);
        }
        existing.listeners.add(onMessage);
        return new ChannelSubscription(this, channel, existing, onMessage);
    }

    /**
     * @return completes when Redis confirmed the channel's subscription; a subscription that
     *         failed is sent again first, so a refusal or a timeout is never kept
     */
    synchronized CompletionStage<Void> confirmation(String channel) {
        Channel existing = channels.get(channel);
        if (existing == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("No longer listening on " + channel));
        }
        retryIfFailed(channel, existing);
        return existing.subscribed;
    }

    private void retryIfFailed(String name, Channel channel) {
        if (channel.subscribed.isCompletedExceptionally()) {
            channel.subscribed = subscribeEverywhere(name);
        }
    }

    private CompletableFuture<Void> subscribeEverywhere(String channel) {
        CompletableFuture<Void> enough = new CompletableFuture<>();
        AtomicInteger confirmed = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        List<StatefulRedisPubSubConnection<String, String>> reachable = List.copyOf(connections);
        if (reachable.size() < confirmationsNeeded) {
            enough.completeExceptionally(new RedisConnectionException("only " + reachable.size() + " server(s)"
                    + " reachable; " + confirmationsNeeded + " must confirm a subscription"));
        }
        for (StatefulRedisPubSubConnection<String, String> connection : reachable) {
            subscribe(connection, channel).whenComplete((ok, failure) -> {
                if (failure == null) {
                    if (confirmed.incrementAndGet() == confirmationsNeeded) {
                        enough.complete(null);
                    }
                } else if (failed.incrementAndGet() > reachable.size() - confirmationsNeeded) {
                    enough.completeExceptionally(failure);
                }
            });
        }
        return enough;
    }

    /**
     * @return how many channels are subscribed now
     */
    public synchronized int activeChannels() {
        return channels.size();
    }

    synchronized CompletableFuture<Void> unsubscribe(String channel, Consumer<String> onMessage) {
        Channel existing = channels.get(channel);
        if (existing == null) {
            return CompletableFuture.completedFuture(null);
        }
        existing.listeners.remove(onMessage);
        if (!existing.listeners.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        channels.remove(channel);
        // Commands on one connection run in order, so a later SUBSCRIBE of the same channel
        // is applied after this UNSUBSCRIBE.
        List<CompletableFuture<Void>> done = new java.util.ArrayList<>();
        for (StatefulRedisPubSubConnection<String, String> connection : connections) {
            done.add((sharded ? connection.async().sunsubscribe(channel) : connection.async().unsubscribe(channel))
                    .toCompletableFuture());
        }
        return CompletableFuture.allOf(done.toArray(CompletableFuture[]::new));
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

    static final class Channel {
        volatile CompletableFuture<Void> subscribed; // written under the ReleaseChannels' monitor
        final Set<Consumer<String>> listeners = Collections.newSetFromMap(new IdentityHashMap<>());

        Channel(CompletableFuture<Void> subscribed) {
            this.subscribed = subscribed;
        }
    }
}
