package dev.locksmith.internal.lock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link LocalContention} of every lock name some thread here is acquiring now. An entry
 * and its pub/sub subscription live exactly as long as some thread is in an acquisition.
 */
final class ContentionRegistry {
    private final Map<String, LocalContention> byName = new ConcurrentHashMap<>();

    LocalContention enter(String name) {
        return byName.compute(name, (key, existing) -> {
            LocalContention contention = existing == null ? new LocalContention(key) : existing;
            contention.users++;
            return contention;
        });
    }

    void leave(LocalContention contention) {
        byName.computeIfPresent(contention.name(), (key, existing) -> {
            if (--existing.users > 0) {
                return existing;
            }
            existing.stopListening();
            return null;
        });
    }

    /**
     * Wakes the local contender for {@code name}, if there is one: a release here need not
     * wait for its own message to come back from Redis.
     */
    void wake(String name) {
        LocalContention contention = byName.get(name);
        if (contention != null) {
            contention.wake();
        }
    }

    void wakeAll() {
        byName.values().forEach(LocalContention::wake);
    }

    int size() {
        return byName.size();
    }
}
