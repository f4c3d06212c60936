package dev.locksmith.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;

/**
 * One contender's median throughput in one scenario divided by another's, and the goal the
 * benchmark issue set for that ratio, if it set one.
 *
 * @param scenario where
 * @param measured the contender divided (a variant of Locksmith)
 * @param baseline the contender it is divided by
 * @param atLeast  the smallest ratio that passes; empty when the ratio is only for reference
 */
record Target(Scenario scenario, Contender measured, Contender baseline, OptionalDouble atLeast) {

    /** Every Locksmith row at least 1.5 x Redisson, uncontended also at least 0.9 x the raw limit. */
    private static final double REDISSON_TIMES = 1.5;
    private static final double RAW_TIMES = 0.9;

    /**
     * @return every ratio worth showing for {@code scenario}: the targets first, then
     *         Locksmith against every other contender that measures it, and each Locksmith variant
     *         against plain Locksmith, for reference; in the fenced-writes rows, fenced against
     *         unfenced, for reference
     */
    static List<Target> of(Scenario scenario) {
        if (scenario.group() == Scenario.Group.FENCED) {
            return List.of(new Target(scenario, Contender.LOCKSMITH_FENCED, Contender.LOCKSMITH_TRANSACTION,
                    OptionalDouble.empty()));
        }
        List<Target> targets = new ArrayList<>();
        for (Contender measured : List.of(Contender.LOCKSMITH, Contender.LOCKSMITH_LOCKED)) {
            if (measured.measures(scenario)) {
                targets.add(new Target(scenario, measured, Contender.REDISSON, OptionalDouble.of(REDISSON_TIMES)));
                if (scenario == Scenario.UNCONTENDED_1 || scenario == Scenario.UNCONTENDED_8) {
                    targets.add(new Target(scenario, measured, Contender.RAW, OptionalDouble.of(RAW_TIMES)));
                }
            }
        }
        for (Contender baseline : Contender.values()) {
            boolean listed = targets.stream().anyMatch(t -> t.measured == Contender.LOCKSMITH && t.baseline == baseline);
            if (baseline != Contender.LOCKSMITH && baseline.measures(scenario) && !listed && !isVariant(baseline)) {
                targets.add(new Target(scenario, Contender.LOCKSMITH, baseline, OptionalDouble.empty()));
            }
        }
        Arrays.stream(Contender.values()).filter(Target::isVariant).filter(variant -> variant.measures(scenario))
                .forEach(variant -> targets.add(new Target(scenario, variant, Contender.LOCKSMITH, OptionalDouble.empty())));
        return List.copyOf(targets);
    }

    private static boolean isVariant(Contender contender) {
        return contender == Contender.LOCKSMITH_TELEMETRY || contender == Contender.LOCKSMITH_LOCKED;
    }

    /**
     * @return measured / baseline, empty when either was not measured
     */
    OptionalDouble ratio(Results results) {
        OptionalDouble numerator = results.medianOps(measured, scenario);
        OptionalDouble denominator = results.medianOps(baseline, scenario);
        if (numerator.isEmpty() || denominator.isEmpty() || denominator.getAsDouble() == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(numerator.getAsDouble() / denominator.getAsDouble());
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
