package dev.locksmith.benchmarks;

import java.util.List;
import java.util.OptionalDouble;

/**
 * A goal from the benchmark issue: Locksmith's median throughput divided by another
 * contender's must reach {@code atLeast}.
 *
 * @param scenario where
 * @param baseline the contender Locksmith is divided by
 * @param atLeast  the smallest ratio that passes
 */
record Target(Scenario scenario, Contender baseline, double atLeast) {

    /** Uncontended: at least 0.9 of the raw limit and at least Redisson; contended: 1.5 x Redisson. */
    static final List<Target> ALL = List.of(
            new Target(Scenario.UNCONTENDED_1, Contender.RAW, 0.9),
            new Target(Scenario.UNCONTENDED_1, Contender.REDISSON, 1.0),
            new Target(Scenario.UNCONTENDED_8, Contender.RAW, 0.9),
            new Target(Scenario.UNCONTENDED_8, Contender.REDISSON, 1.0),
            new Target(Scenario.CONTENDED, Contender.REDISSON, 1.5));

    /**
     * @return Locksmith / baseline, empty when either was not measured
     */
    OptionalDouble ratio(Results results) {
        return ratio(results, scenario, baseline);
    }

    /**
     * @return Locksmith / {@code baseline} in {@code scenario}, empty when either was not measured
     */
    static OptionalDouble ratio(Results results, Scenario scenario, Contender baseline) {
        OptionalDouble locksmith = results.medianOps(Contender.LOCKSMITH, scenario);
        OptionalDouble other = results.medianOps(baseline, scenario);
        if (locksmith.isEmpty() || other.isEmpty() || other.getAsDouble() == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(locksmith.getAsDouble() / other.getAsDouble());
    }

    /**
     * @return "met", "MISSED", or "not measured"
     */
    String verdict(Results results) {
        OptionalDouble ratio = ratio(results);
        if (ratio.isEmpty()) {
            return "not measured";
        }
        return ratio.getAsDouble() >= atLeast ? "met" : "MISSED";
    }
}
