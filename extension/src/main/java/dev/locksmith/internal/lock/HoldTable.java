package dev.locksmith.internal.lock;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every hold this process has, by lock name and owner. Holds are recorded only after Redis
 * granted them, so the table never claims a hold Redis does not have.
 */
public final class HoldTable {
    private final Map<String, Map<String, Hold>> byName = new ConcurrentHashMap<>();

    /**
     * @return the hold of {@code owner} on {@code name}, or null
     */
    public Hold get(String name, String owner) {
        Map<String, Hold> holders = byName.get(name);
        return holders == null ? null : holders.get(owner);
    }

    void put(Hold hold) {
        byName.compute(hold.name(), (name, holders) -> {
            Map<String, Hold> result = holders == null ? new ConcurrentHashMap<>(2) : holders;
            result.put(hold.owner(), hold);
            return result;
        });
    }

    void remove(Hold hold) {
        byName.computeIfPresent(hold.name(), (name, holders) -> {
            holders.remove(hold.owner(), hold);
            return holders.isEmpty() ? null : holders;
        });
    }

    /**
     * @return every hold, for shutdown
     */
    public List<Hold> all() {
        return byName.values().stream().flatMap(holders -> holders.values().stream()).toList();
    }

    /**
     * @return how many locks are held now
     */
    public int size() {
        return byName.values().stream().mapToInt(Map::size).sum();
    }
}
