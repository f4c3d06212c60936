package dev.locksmith.internal.lease;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every hold this process has, by lock hash and hold field. Holds are recorded only after Redis
 * granted them, so the table never claims a hold Redis does not have.
 */
final class HoldTable {
    private final Map<String, Map<String, Hold>> byHash = new ConcurrentHashMap<>();

    Hold get(String hash, String field) {
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

    /**
     * @return true if the hold was in the table
     */
    boolean remove(Hold hold) {
        boolean[] removed = new boolean[1];
        byHash.computeIfPresent(hold.keys().hash(), (hash, holders) -> {
            removed[0] = holders.remove(hold.field(), hold);
            return holders.isEmpty() ? null : holders;
        });
        return removed[0];
    }

    List<Hold> all() {
        return byHash.values().stream().flatMap(holders -> holders.values().stream()).toList();
    }

    int size() {
        return byHash.values().stream().mapToInt(Map::size).sum();
    }
}
