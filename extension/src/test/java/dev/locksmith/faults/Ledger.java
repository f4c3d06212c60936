package dev.locksmith.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who is inside which critical section now, as the scenarios' threads say when they enter and
 * leave: any moment with two exclusive holders of a name, or an exclusive holder beside a
 * shared one, is recorded as a violation of mutual exclusion.
 */
final class Ledger {
    private final Map<String, List<String>> exclusive = new HashMap<>();
    private final Map<String, List<String>> shared = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private int entries;

    /**
     * Enters the critical section of {@code lock}; close the returned section to leave it.
     *
     * @param lock      the lock's name
     * @param who       the holder, for the report
     * @param isShared  true for a reader, who may be inside with other readers
     * @return the section
     */
    synchronized Section enter(String lock, String who, boolean isShared) {
        List<String> writers = exclusive.computeIfAbsent(lock, name -> new ArrayList<>());
        List<String> readers = shared.computeIfAbsent(lock, name -> new ArrayList<>());
        if (!writers.isEmpty() || (!isShared && !readers.isEmpty())) {
            violations.add(who + " entered '" + lock + "' " + (isShared ? "(shared)" : "(exclusive)")
                    + " while " + writers + " held it exclusively and " + readers + " shared");
        }
        (isShared ? readers : writers).add(who);
        entries++;
        return () -> leave(lock, who, isShared);
    }

    private synchronized void leave(String lock, String who, boolean isShared) {
        (isShared ? shared : exclusive).get(lock).remove(who);
    }

    /**
     * @return every overlap seen, in words
     */
    synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    /**
     * @return how many times a critical section was entered
     */
    synchronized int entries() {
        return entries;
    }

    /** One stay in a critical section. */
    interface Section extends AutoCloseable {
        @Override
        void close();
    }
}
