package dev.locksmith.internal.lock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link LocalContention} of every lock some thread here is acquiring now, by release
 * channel. An entry and its pub/sub subscription live exactly as long as some thread is in an
 * acquisition.
 */
final class ContentionRegistry {
    private final Map<String, LocalContention> byChannel = new ConcurrentHashMap<>();

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
