package dev.locksmith.it.faults;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a fault run showed: the holds the workers reported, the writes the resource accepted, and
 * the three things that must never happen.
 *
 * @param holds          every completed hold
 * @param faults         how many faults of each kind were injected
 * @param acceptedTokens per name, the tokens of accepted writes in the order the resource accepted them
 * @param staleRejected  writes the resource rejected as stale
 */
record FaultRunCheck(List<HoldRecord> holds, Map<Fault, Integer> faults, Map<String, List<Long>> acceptedTokens,
        long staleRejected) {

    /**
     * @return pairs of holds of one name, both confirmed held throughout by their unlock, whose times overlap
     */
    List<String> violations() {
        List<String> found = new ArrayList<>();
        Map<String, List<HoldRecord>> byName = holds.stream().filter(HoldRecord::heldThroughout)
                .collect(Collectors.groupingBy(HoldRecord::name));
        for (List<HoldRecord> sameName : byName.values()) {
            List<HoldRecord> sorted = sameName.stream().sorted(Comparator.comparingLong(HoldRecord::acquired)).toList();
            for (int i = 0; i < sorted.size(); i++) {
                for (int j = i + 1; j < sorted.size() && sorted.get(j).acquired() < sorted.get(i).released(); j++) {
                    if (sorted.get(i).overlaps(sorted.get(j))) {
                        found.add(sorted.get(i) + " and " + sorted.get(j));
                    }
                }
            }
        }
        return found;
    }

    /**
     * @return per name, places where the resource accepted a lower token after a higher one
     */
    List<String> outOfOrder() {
        List<String> found = new ArrayList<>();
        acceptedTokens.forEach((name, tokens) -> {
            for (int i = 1; i < tokens.size(); i++) {
                if (tokens.get(i) < tokens.get(i - 1)) {
                    found.add(name + ": token " + tokens.get(i) + " accepted after " + tokens.get(i - 1));
                }
            }
        });
        return found;
    }

    /**
     * @return writes a worker was told were accepted that the resource has no record of
     */
    List<String> missing() {
        Map<String, Set<Long>> recorded = acceptedTokens.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> Set.copyOf(entry.getValue())));
        return holds.stream().filter(hold -> hold.acceptedWrites() > 0)
                .filter(hold -> !recorded.getOrDefault(hold.name(), Set.of()).contains(hold.token()))
                .map(HoldRecord::toString).toList();
    }

    long acceptedWrites() {
        return acceptedTokens.values().stream().mapToLong(List::size).sum();
    }

    /**
     * @return the report, in Markdown
     */
    String report(long seed, java.time.Duration duration, int workers, int threads, int managers,
                  java.time.Duration lease) {
        StringBuilder text = new StringBuilder("# Fault run\n\n")
                .append("Seed ").append(seed).append(", ").append(duration.toSeconds()).append(" s, ")
                .append(workers).append(" worker JVMs x ").append(threads).append(" threads over ").append(managers)
                .append(" lock managers each (").append(workers * managers).append(" contending processes), lease ")
                .append(lease.toMillis()).append(" ms.\n\n| what | count |\n| --- | ---: |\n");
        Map<Fault, Integer> sorted = new EnumMap<>(Fault.class);
        sorted.putAll(faults);
        sorted.forEach((fault, count) -> text.append("| fault: ").append(fault.description()).append(" | ")
                .append(count).append(" |\n"));
        text.append("| holds completed | ").append(holds.size()).append(" |\n")
                .append("| holds whose unlock found the lock lost | ")
                .append(holds.stream().filter(hold -> "lost".equals(hold.unlock())).count()).append(" |\n")
                .append("| writes accepted | ").append(acceptedWrites()).append(" |\n")
                .append("| writes rejected as stale | ").append(staleRejected).append(" |\n")
                .append("| mutual-exclusion violations | ").append(violations().size()).append(" |\n")
                .append("| writes accepted out of token order | ").append(outOfOrder().size()).append(" |\n")
                .append("| accepted writes missing from the resource | ").append(missing().size()).append(" |\n");
        return text.toString();
    }
}
