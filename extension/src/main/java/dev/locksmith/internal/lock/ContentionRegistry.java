package dev.locksmith.internal.lock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The {@link LocalContention} of every lock some thread here is acquiring now, by release
 * channel. An entry and its pub/sub subscription live exactly as long as some thread is in an
 * acquisition.
 */
final class ContentionRegistry {
    private final Map<String, LocalContention> byChannel = new ConcurrentHashMap<>();
    private final ManagerState state;
    private final long claimPatienceNanos;
    private final LongSupplier clock;

    /**
     * @param state              whether the manager is open: waits end when it closes
     * @param claimPatienceNanos the longest a round trip can last: how long a waiter a release
     *                           claimed waits for that release's answer
     * @param clock              the lease keeper's clock, in nanoseconds
     */
    ContentionRegistry(ManagerState state, long claimPatienceNanos, LongSupplier clock) {
        this.state = state;
        this.claimPatienceNanos = claimPatienceNanos;
        this.clock = clock;
    }

    LocalContention enter(String channel) {
        return byChannel.compute(channel, (key, existing) -> {
            LocalContention contention = existing == null
                    ? new LocalContention(key, state, claimPatienceNanos, clock) : existing;
            contention.users++;
            return contention;
        });
    }

    void leave(LocalContention contention) {
        byChannel.computeIfPresent(contention.channel(), (key, existing) -> {
            if (--existing.users > 0) {
                return existing;
            }
            existing.stopListening();
            return null;
        });
    }

    /**
     * @return the threads acquiring the lock with this release channel now, or null when none is
     */
    LocalContention contending(String channel) {
        return byChannel.get(channel);
    }

    /**
     * Wakes the local waiters of a lock released here (of any kind): they need not wait for a
     * release message from Redis, which a release publishes only to waiters that asked for one.
     */
    void wakeLine(String channel) {
        LocalContention contention = byChannel.get(channel);
        if (contention != null) {
            contention.wakeLine();
        }
    }

    /**
     * Wakes every waiter of every lock; each then sees that the manager closed.
     */
    void wakeAll() {
        byChannel.values().forEach(LocalContention::wakeAll);
    }

    /**
     * @return how many lock names some thread of this manager is acquiring now
     */
    int size() {
        return byChannel.size();
    }
}
