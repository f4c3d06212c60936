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
 * @param clientNanos  CPU nanoseconds of all worker JVMs in the counted window, -1 if unknown
 * @param commands     what Redis executed in the counted window
 * @param statements   what the database executed for the workers in the counted window;
 *                     {@link DatabaseStats#NONE} where the scenario uses no database
 * @param handOffs     the hand-offs between processes in the counted window; {@link HandOffLatency#NONE}
 *                     where the scenario does not measure them
 */
record Measurement(Contender contender, Scenario scenario, int repetition, double seconds,
                   List<Long> cyclesPerJvm, long violations, long clientNanos, CommandStats commands,
                   DatabaseStats statements, HandOffLatency handOffs) {

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
     * @return script calls per cycle: the requests that ran a script
     */
    double scriptCallsPerCycle() {
        return cycles() == 0 ? Double.NaN : (double) commands.scriptCalls() / cycles();
    }

    /**
     * @return microseconds Redis spent running scripts, per cycle
     */
    double scriptMicrosPerCycle() {
        return cycles() == 0 ? Double.NaN : (double) commands.scriptMicros() / cycles();
    }

    /**
     * @return CPU microseconds of the redis-server process per cycle
     */
    double serverCpuMicrosPerCycle() {
        return cycles() == 0 ? Double.NaN : (double) commands.cpuMicros() / cycles();
    }

    /**
     * @return CPU microseconds of the worker JVMs per cycle
     */
    double clientCpuMicrosPerCycle() {
        return cycles() == 0 || clientNanos < 0 ? Double.NaN : clientNanos / 1000.0 / cycles();
    }
}
