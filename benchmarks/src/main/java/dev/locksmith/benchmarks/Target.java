package dev.locksmith.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Locksmith's median throughput in one scenario divided by another contender's, and the goal the
 * benchmark issue set for that ratio, if it set one.
 *
 * @param scenario where
 * @param baseline the contender Locksmith is divided by
 * @param atLeast  the smallest ratio that passes; empty when the ratio is only for reference
 */
record Target(Scenario scenario, Contender baseline, OptionalDouble atLeast) {

    /** Uncontended: at least 0.9 of the raw limit and at least Redisson; contended: 1.5 x Redisson. */
    private static final List<Target> FROM_THE_ISSUE = List.of(
            new Target(Scenario.UNCONTENDED_1, Contender.RAW, OptionalDouble.of(0.9)),
            new Target(Scenario.UNCONTENDED_1, Contender.REDISSON, OptionalDouble.of(1.0)),
            new Target(Scenario.UNCONTENDED_8, Contender.RAW, OptionalDouble.of(0.9)),
            new Target(Scenario.UNCONTENDED_8, Contender.REDISSON, OptionalDouble.of(1.0)),
            new Target(Scenario.CONTENDED, Contender.REDISSON, OptionalDouble.of(1.5)));

    /**
     * @return every ratio worth showing for {@code scenario}: the issue's targets first, then every
     *         other contender that measures it, for reference
     */
    static List<Target> of(Scenario scenario) {
        List<Target> targets = new ArrayList<>(FROM_THE_ISSUE.stream().filter(t -> t.scenario == scenario).toList());
        for (Contender baseline : Contender.values()) {
            boolean listed = targets.stream().anyMatch(t -> t.baseline == baseline);
            if (baseline != Contender.LOCKSMITH && baseline.measures(scenario) && !listed) {
                targets.add(new Target(scenario, baseline, OptionalDouble.empty()));
            }
        }
        return List.copyOf(targets);
    }

    /**
     * @return Locksmith / baseline, empty when either was not measured
     */
    OptionalDouble ratio(Results results) {
        OptionalDouble locksmith = results.medianOps(Contender.LOCKSMITH, scenario);
        OptionalDouble other = results.medianOps(baseline, scenario);
        if (locksmith.isEmpty() || other.isEmpty() || other.getAsDouble() == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(locksmith.getAsDouble() / other.getAsDouble());
    }

    /**
     * @return what the reader must know to read the ratio, or "": the raw client retries a busy
     *         lock at once, so where threads share a lock it is a polling lock, not a limit
     */
    String note() {
        return baseline == Contender.RAW && scenario.sharesLocks() ? "polling" : "";
    }

    /**
     * @return "met", "MISSED", "not measured", or "for reference" when there is no target
     */
    String verdict(Results results) {
        OptionalDouble ratio = ratio(results);
        if (ratio.isEmpty()) {
            return "not measured";
        }
        if (atLeast.isEmpty()) {
            return "for reference";
        }
        return ratio.getAsDouble() >= atLeast.getAsDouble() ? "met" : "MISSED";
    }
}
