package dev.locksmith.internal.lease;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Every hold this process has, by lock key and hold field. Holds are recorded only after Redis
 * granted them, so the table never claims a hold Redis does not have.
 */
final class HoldTable {
    private final Map<String, Map<String, Hold>> byLock = new ConcurrentHashMap<>();
    // Changes take this lock first, so the maps' own monitors are never contended: many readers of
    // one name recording their holds at once would otherwise wait on a bin's monitor, where a
    // virtual thread can stay pinned to its carrier (see ContentionRegistry); on this lock it parks.
    private final ReentrantLock changes = new ReentrantLock();

    Hold get(String lock, String field) {
        Map<String, Hold> holders = byLock.get(lock);
        return holders == null ? null : holders.get(field);
    }

    /**
     * @return any hold of the lock at {@code lock}, or null when this process holds none
     */
    Hold anyOf(String lock) {
        Map<String, Hold> holders = byLock.get(lock);
        if (holders == null) {
            return null;
        }
        Iterator<Hold> first = holders.values().iterator();
        return first.hasNext() ? first.next() : null;
    }

    void put(Hold hold) {
        changes.lock();
        try {
            byLock.compute(hold.keys().lock(), (lock, holders) -> {
                Map<String, Hold> result = holders == null ? new ConcurrentHashMap<>(2) : holders;
                result.put(hold.field(), hold);
                return result;
            });
        } finally {
            changes.unlock();
        }
    }

    /**
     * @return true if the hold was in the table
     */
    boolean remove(Hold hold) {
        boolean[] removed = new boolean[1];
        changes.lock();
        try {
            byLock.computeIfPresent(hold.keys().lock(), (lock, holders) -> {
                removed[0] = holders.remove(hold.field(), hold);
                return holders.isEmpty() ? null : holders;
            });
        } finally {
            changes.unlock();
        }
        return removed[0];
    }

    List<Hold> all() {
        return byLock.values().stream().flatMap(holders -> holders.values().stream()).toList();
    }

    int size() {
        return byLock.values().stream().mapToInt(Map::size).sum();
    }
}
