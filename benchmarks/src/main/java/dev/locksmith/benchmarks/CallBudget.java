package dev.locksmith.benchmarks;

import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * How much Redis work per cycle the benchmark issue allows Locksmith in one scenario. Counted by
 * Redis itself ({@code INFO commandstats}), so machine load cannot move it: these are the
 * figures to read first.
 *
 * @param scenario where
 * @param what     what is counted, for the report
 * @param atMost   the most that passes
 * @param count    reads the count per cycle from a measurement
 */
record CallBudget(Scenario scenario, String what, double atMost, ToDoubleFunction<Measurement> count) {

    private static final List<CallBudget> FROM_THE_ISSUE = List.of(
            calls(Scenario.UNCONTENDED_1, 7),
            calls(Scenario.UNCONTENDED_8, 7),
            calls(Scenario.READ, 10),
            calls(Scenario.WRITE, 10),
            calls(Scenario.FAIR, 20),
            // Three locks, one script call each way, sent together: two round trips.
            new CallBudget(Scenario.MULTI, "script calls, each way sent together", 6, Measurement::scriptCallsPerCycle),
            // Three masters, asked at once: two round trips.
            new CallBudget(Scenario.REDLOCK, "script calls over 3 masters", 6, Measurement::scriptCallsPerCycle));

    private static CallBudget calls(Scenario scenario, double atMost) {
        return new CallBudget(scenario, "Redis calls", atMost, Measurement::commandsPerCycle);
    }

    /**
     * @return the budget of {@code scenario}, if the issue set one
     */
    static Optional<CallBudget> of(Scenario scenario) {
        return FROM_THE_ISSUE.stream().filter(budget -> budget.scenario == scenario).findFirst();
    }

    /**
     * @param locksmith Locksmith's median repetition in the scenario
     * @return "met" or "MISSED"
     */
    String verdict(Measurement locksmith) {
        return count.applyAsDouble(locksmith) <= atMost + 0.005 ? "met" : "MISSED";
    }
}
