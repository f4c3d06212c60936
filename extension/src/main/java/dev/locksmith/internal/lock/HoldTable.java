package dev.locksmith.internal.lock;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every hold this process has, by lock hash and hold field. Holds are recorded only after Redis
 * granted them, so the table never claims a hold Redis does not have.
 */
public final class HoldTable {
    private final Map<String, Map<String, Hold>> byHash = new ConcurrentHashMap<>();

    /**
     * @return the hold counted in {@code field} of the lock hash {@code hash}, or null
     */
    public Hold get(String hash, String field) {
        Map<String, Hold> holders = byHash.get(hash);
        return holders == null ? null : holders.get(field);
    }

    void put(Hold hold) {
        byHash.compute(hold.keys().hash(), (hash, holders) -> {
            Map<String, Hold> result = holders == null ? new ConcurrentHashMap<>(2) : holders;
            result.put(hold.field(), hold);
            return result;
        });
    }

    void remove(Hold hold) {
        byHash.computeIfPresent(hold.keys().hash(), (hash, holders) -> {
            holders.remove(hold.field(), hold);
            return holders.isEmpty() ? null : holders;
        });
    }

    /**
     * @return every hold, for shutdown
     */
    public List<Hold> all() {
        return byHash.values().stream().flatMap(holders -> holders.values().stream()).toList();
    }

    /**
     * @return how many holds there are now
     */
    public int size() {
        return byHash.values().stream().mapToInt(Map::size).sum();
    }
}
