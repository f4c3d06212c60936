package dev.locksmith.benchmarks;

import java.util.List;

/**
 * One measured window of one contender in one scenario.
 *
 * @param contender    who was measured
 * @param scenario     what was measured
 * @param repetition   1-based repetition number
 * @param seconds      the length of the counted window
 * @param cyclesPerJvm lock+unlock cycles completed in the counted window, per worker JVM
 * @param violations   times the occupancy probe saw two holders of one lock (must be 0)
 * @param commands     what Redis executed in the counted window
 */
record Measurement(Contender contender, Scenario scenario, int repetition, double seconds,
                   List<Long> cyclesPerJvm, long violations, CommandStats commands) {

    Measurement {
        cyclesPerJvm = List.copyOf(cyclesPerJvm);
    }

    /**
     * @return cycles of all worker JVMs together
     */
    long cycles() {
        return cyclesPerJvm.stream().mapToLong(Long::longValue).sum();
    }

    /**
     * @return lock+unlock cycles per second, all threads of all JVMs together
     */
    double opsPerSecond() {
        return cycles() / seconds;
    }

    /**
     * @return Redis calls per cycle, scripts and the commands inside them alike
     */
    double commandsPerCycle() {
        return cycles() == 0 ? Double.NaN : (double) commands.totalCalls() / cycles();
    }

    /**
     * @return Redis server microseconds per cycle
     */
    double redisMicrosPerCycle() {
        return cycles() == 0 ? Double.NaN : (double) commands.totalMicros() / cycles();
    }
}
