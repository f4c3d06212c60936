package dev.locksmith.internal.lease;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Groups holds into renewal calls: one server (or cluster slot) and one lease per call, at most
 * {@link #MAX_KEYS_PER_CALL} keys each, so that no call blocks Redis for long.
 */
final class RenewalBatches {
    static final int MAX_KEYS_PER_CALL = 256;

    private RenewalBatches() {
    }

    /**
     * @param partitionOf the server (or slot) of a lock key, as the store places it
     * @return the holds in calls, in their order within each call
     */
    static List<List<Hold>> of(List<Hold> holds, ToIntFunction<String> partitionOf) {
        Map<List<Long>, List<Hold>> groups = new LinkedHashMap<>();
        for (Hold hold : holds) {
            List<Long> group = List.of((long) partitionOf.applyAsInt(hold.keys().lock()), hold.leaseMillis());
            groups.computeIfAbsent(group, key -> new ArrayList<>()).add(hold);
        }
        List<List<Hold>> batches = new ArrayList<>();
        for (List<Hold> group : groups.values()) {
            for (int from = 0; from < group.size(); from += MAX_KEYS_PER_CALL) {
                batches.add(group.subList(from, Math.min(group.size(), from + MAX_KEYS_PER_CALL)));
            }
        }
        return batches;
    }
}
