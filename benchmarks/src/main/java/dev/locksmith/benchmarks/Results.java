package dev.locksmith.benchmarks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Every measurement of one run, and their medians.
 */
final class Results {
    private final List<Measurement> measurements = new ArrayList<>();

    void add(Measurement measurement) {
        measurements.add(measurement);
    }

    /**
     * @return every measurement, in the order taken
     */
    List<Measurement> all() {
        return List.copyOf(measurements);
    }

    /**
     * @return the repetitions of one contender in one scenario, in the order taken
     */
    List<Measurement> of(Contender contender, Scenario scenario) {
        return measurements.stream()
                .filter(m -> m.contender() == contender && m.scenario() == scenario)
                .toList();
    }

    /**
     * @return the median ops/s over the repetitions, empty when that pair was not measured
     */
    OptionalDouble medianOps(Contender contender, Scenario scenario) {
        double[] ops = of(contender, scenario).stream().mapToDouble(Measurement::opsPerSecond).sorted().toArray();
        if (ops.length == 0) {
            return OptionalDouble.empty();
        }
        int middle = ops.length / 2;
        return OptionalDouble.of(ops.length % 2 == 1 ? ops[middle] : (ops[middle - 1] + ops[middle]) / 2);
    }

    /**
     * @return the repetition whose throughput is the median (the slower middle one of an even
     *         number), empty when that pair was not measured
     */
    Optional<Measurement> medianRepetition(Contender contender, Scenario scenario) {
        List<Measurement> byThroughput = of(contender, scenario).stream()
                .sorted(Comparator.comparingDouble(Measurement::opsPerSecond))
                .toList();
        return byThroughput.isEmpty() ? Optional.empty() : Optional.of(byThroughput.get((byThroughput.size() - 1) / 2));
    }

    /**
     * @return all mutual exclusion violations seen
     */
    long violations() {
        return measurements.stream().mapToLong(Measurement::violations).sum();
    }

    /**
     * @return all cycles counted
     */
    long cycles() {
        return measurements.stream().mapToLong(Measurement::cycles).sum();
    }
}
