package dev.locksmith.internal.lock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@link LocalContention} of every lock some thread here is acquiring now, by release
 * channel. An entry and its pub/sub subscription live exactly as long as some thread is in an
 * acquisition.
 */
final class ContentionRegistry {
    private final Map<String, LocalContention> byChannel = new ConcurrentHashMap<>();
    private final LongAdder handOvers = new LongAdder();

    LocalContention enter(String channel) {
        return byChannel.compute(channel, (key, existing) -> {
            LocalContention contention = existing == null ? new LocalContention(key) : existing;
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
     * Counts a lock passed straight from one thread of this process to another.
     */
    void handedOver() {
        handOvers.increment();
    }

    /**
     * @return how many times a lock passed straight between threads of this process
     */
    long handOvers() {
        return handOvers.sum();
    }

    /**
     * Wakes the local waiters of a lock released here: they need not wait for the release
     * message to come back from Redis.
     */
    void wake(String channel) {
        LocalContention contention = byChannel.get(channel);
        if (contention != null) {
            contention.wake("*");
        }
    }

    void wakeAll() {
        byChannel.values().forEach(contention -> contention.wake("*"));
    }

    int size() {
        return byChannel.size();
    }
}
