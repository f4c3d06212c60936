package dev.locksmith.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Runs the whole benchmark: starts the {@link RedisServers} on free loopback ports (and, for the
 * fenced-writes rows, the {@link BenchmarkDatabase}), measures
 * every contender in every scenario (see {@link ScenarioRunner}), prints
 * the report and writes {@code BENCHMARKS.md} and one chart per {@link Scenario.Group} into the docs folder
 * (a {@link BarChart}, or for the scale rows a {@link ScaleChart}).
 * The servers and every worker JVM are stopped at the end, also on failure or Ctrl-C.
 *
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests &amp;&amp; java -jar benchmarks/target/locksmith-benchmarks.jar
 * </pre>
 */
public final class LockBenchmark {
    private LockBenchmark() {
    }

    /**
     * @param args see {@link BenchmarkOptions#USAGE}
     * @throws Exception when a measurement fails; the message carries the worker's output.
     *                   Exits with 1 if any mutual exclusion violation was seen, 2 on bad arguments.
     */
    public static void main(String[] args) throws Exception {
        if (List.of(args).contains("--help")) {
            System.out.println(BenchmarkOptions.USAGE);
            return;
        }
        BenchmarkOptions options;
        try {
            options = BenchmarkOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Instant started = Instant.now();
        Path work = Files.createTempDirectory("locksmith-bench-");
        // A hook, not a finally: it also runs when the run is stopped with Ctrl-C.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteRecursively(work), "delete-benchmark-files"));
        Results results = new Results();
        try (RedisServers redis = RedisServers.start();
             BenchmarkDatabase database = options.needsDatabase() ? BenchmarkDatabase.start(work) : null) {
            MachineInfo machine = MachineInfo.collect(redis.single(), database);
            ScenarioRunner runner = new ScenarioRunner(redis, database, options, work);
            for (List<Scenario> rotation : options.rotations()) {
                runner.run(rotation, measurement -> {
                    results.add(measurement);
                    HandOffLatency handOffs = measurement.handOffs();
                    System.err.printf(Locale.ROOT, "rep %d  %-38s %-16s %9s ops/s  %5.2f calls  cpu us/cycle: server %6.1f"
                                    + " client %6.1f  violations %d%s%s%n",
                            measurement.repetition(), measurement.scenario().label(), measurement.contender().label(),
                            MarkdownReport.ops(measurement.opsPerSecond()), measurement.commandsPerCycle(),
                            measurement.serverCpuMicrosPerCycle(), measurement.clientCpuMicrosPerCycle(),
                            measurement.violations(), handOffs.count() == 0 ? "" : String.format(Locale.ROOT,
                                    "  hand-offs %d p50 %.0f us p99 %.0f us release p50 %.0f us", handOffs.count(),
                                    handOffs.p50Micros(), handOffs.p99Micros(), handOffs.releaseP50Micros()),
                            measurement.scenario().usesDatabase() ? String.format(Locale.ROOT, "  statements/tx %.2f",
                                    measurement.statements().statementsPerTransaction()) : "");
                });
            }
            String report = new MarkdownReport(results, machine, options, Duration.between(started, Instant.now())).render();
            System.out.println(report);
            Files.createDirectories(options.docs());
            Files.writeString(options.docs().resolve("BENCHMARKS.md"), report, StandardCharsets.UTF_8);
            System.err.println("Wrote " + options.docs().resolve("BENCHMARKS.md"));
            for (Scenario.Group group : options.groups()) {
                Path chart = options.docs().resolve(group.chart());
                if (group == Scenario.Group.SCALE) {
                    new ScaleChart(results, options, machine).write(chart);
                } else {
                    new BarChart(results, options, machine, group).write(chart);
                }
                System.err.println("Wrote " + chart);
            }
        }
        if (results.violations() > 0) {
            System.err.println(results.violations() + " mutual exclusion violations: a lock let two holders in.");
            System.exit(1);
        }
    }

    private static void deleteRecursively(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            System.err.println("Could not delete " + directory + ": " + e);
        }
    }
}
