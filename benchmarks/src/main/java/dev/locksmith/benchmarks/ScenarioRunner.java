package dev.locksmith.benchmarks;

import dev.locksmith.testing.RedisNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Takes one measurement: empties the scenario's servers, starts its worker JVMs for one
 * contender, sets them all the same window, reads the servers' command counters over the counted
 * part, and stops the workers, also when something fails.
 */
final class ScenarioRunner {
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration FINISH = Duration.ofSeconds(90);
    /** Time for the GO line to reach every worker before the window opens. */
    private static final long START_DELAY_MILLIS = 300;

    private final RedisServers servers;
    private final BenchmarkOptions options;
    private final Path workDirectory;

    /**
     * @param workDirectory where the occupancy files live; the caller deletes it
     */
    ScenarioRunner(RedisServers servers, BenchmarkOptions options, Path workDirectory) {
        this.servers = servers;
        this.options = options;
        this.workDirectory = workDirectory;
    }

    /**
     * @return the measurement
     * @throws IllegalStateException if a worker JVM failed, with its output
     */
    Measurement run(Contender contender, Scenario scenario, int repetition) throws InterruptedException {
        String run = (contender + "-" + scenario + "-" + repetition).toLowerCase(Locale.ROOT);
        Path occupancy = workDirectory.resolve(run + ".occupancy");
        List<RedisNode> redis = servers.of(scenario.servers());
        redis.forEach(node -> node.command("FLUSHALL"));
        String redisUris = redis.stream().map(RedisNode::uri).collect(Collectors.joining(","));
        List<WorkerJvm> workers = new ArrayList<>();
        try {
            for (int jvm = 0; jvm < scenario.jvms(); jvm++) {
                workers.add(WorkerJvm.start(List.of(contender.name(), scenario.name(), run, Integer.toString(jvm),
                        occupancy.toString(), redisUris)));
            }
            for (WorkerJvm worker : workers) {
                worker.await(BenchmarkWorker.READY, STARTUP);
            }
            Window window = Window.startingIn(START_DELAY_MILLIS, options.warmup(scenario.group()).toMillis(),
                    options.measure(scenario.group()).toMillis());
            workers.forEach(worker -> worker.send(window.toLine()));
            Window.sleepUntil(window.measureFrom());
            long[] serverCpu = CommandStats.reset(redis);
            Window.sleepUntil(window.measureUntil());
            CommandStats commands = CommandStats.read(redis, serverCpu);
            List<Long> cycles = new ArrayList<>();
            long violations = 0;
            long clientCpuNanos = 0;
            for (WorkerJvm worker : workers) {
                String[] result = worker.await(BenchmarkWorker.RESULT, FINISH).split(" ");
                cycles.add(Long.parseLong(result[1]));
                violations += Long.parseLong(result[2]);
                long cpu = Long.parseLong(result[3]);
                clientCpuNanos = clientCpuNanos < 0 || cpu < 0 ? -1 : clientCpuNanos + cpu;
            }
            return new Measurement(contender, scenario, repetition, window.measuredSeconds(), cycles, violations,
                    clientCpuNanos, commands);
        } finally {
            workers.forEach(WorkerJvm::close);
            try {
                Files.deleteIfExists(occupancy);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not delete " + occupancy, e);
            }
        }
    }
}
