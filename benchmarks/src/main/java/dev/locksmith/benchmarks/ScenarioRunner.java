package dev.locksmith.benchmarks;

import dev.locksmith.testing.RedisNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Measures one scenario for several contenders. Each contender's worker JVMs start once and warm
 * up once (the JIT compiler settles), then the repetitions take turns between the contenders,
 * so that drift on the machine hits all alike. Before every window the scenario's servers are
 * emptied; over its counted part the servers' command counters are read. The workers are stopped
 * at the end, also when something fails.
 */
final class ScenarioRunner {
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration FINISH = Duration.ofSeconds(90);
    /** Time for the GO line to reach every worker before the window opens. */
    private static final long START_DELAY_MILLIS = 300;
    /** Uncounted cycling before each counted window of a warm worker: refills caches and pools. */
    static final Duration LEAD_IN = Duration.ofSeconds(1);

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
     * @param measured called with each measurement as soon as it is taken
     * @throws IllegalStateException if a worker JVM failed, with its output
     */
    void run(Scenario scenario, List<Contender> contenders, Consumer<Measurement> measured) throws InterruptedException {
        List<RedisNode> redis = servers.of(scenario.servers());
        String redisUris = redis.stream().map(RedisNode::uri).collect(Collectors.joining(","));
        Map<Contender, List<WorkerJvm>> workers = new EnumMap<>(Contender.class);
        Map<Contender, HandOffProbe> handOffs = new EnumMap<>(Contender.class);
        List<Path> probeFiles = new ArrayList<>();
        try {
            for (Contender contender : contenders) {
                String run = (contender + "-" + scenario).toLowerCase(Locale.ROOT);
                Path occupancy = workDirectory.resolve(run + ".occupancy");
                Path handOff = workDirectory.resolve(run + ".handoff");
                probeFiles.add(occupancy);
                probeFiles.add(handOff);
                if (scenario.measuresHandOffs()) {
                    handOffs.put(contender, HandOffProbe.map(handOff));
                }
                List<WorkerJvm> jvms = new ArrayList<>();
                workers.put(contender, jvms);
                for (int jvm = 0; jvm < scenario.jvms(); jvm++) {
                    jvms.add(WorkerJvm.start(List.of(contender.name(), scenario.name(), run, Integer.toString(jvm),
                            occupancy.toString(), handOff.toString(), redisUris)));
                }
            }
            // All start at once: JVM start-up overlaps, and nobody is measured yet.
            for (List<WorkerJvm> jvms : workers.values()) {
                for (WorkerJvm worker : jvms) {
                    worker.await(BenchmarkWorker.READY, STARTUP);
                }
            }
            for (Contender contender : contenders) {
                window(workers.get(contender), handOffs.get(contender), redis, options.warmup(scenario),
                        Duration.ZERO);
            }
            for (int repetition = 1; repetition <= options.repetitions(scenario.group()); repetition++) {
                for (Contender contender : contenders) {
                    Duration measure = options.measure(scenario.group());
                    Counted counted = window(workers.get(contender), handOffs.get(contender), redis, LEAD_IN, measure);
                    measured.accept(new Measurement(contender, scenario, repetition, measure.toMillis() / 1000.0,
                            counted.cycles(), counted.violations(), counted.clientCpuNanos(), counted.commands(),
                            counted.handOffs()));
                }
            }
        } finally {
            workers.values().forEach(jvms -> jvms.forEach(WorkerJvm::close));
            handOffs.values().forEach(HandOffProbe::close);
            for (Path file : probeFiles) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    throw new UncheckedIOException("Could not delete " + file, e);
                }
            }
        }
    }

    private record Counted(List<Long> cycles, long violations, long clientCpuNanos, CommandStats commands,
                           HandOffLatency handOffs) {
    }

    /**
     * Runs one window on every worker of one contender, on emptied servers.
     *
     * @param handOffs the contender's hand-off probe, null where the scenario measures none
     */
    private Counted window(List<WorkerJvm> workers, HandOffProbe handOffs, List<RedisNode> redis, Duration uncounted,
                           Duration counted) throws InterruptedException {
        redis.forEach(node -> node.command("FLUSHALL"));
        if (handOffs != null) {
            handOffs.reset();
        }
        Window window = Window.startingIn(START_DELAY_MILLIS, uncounted.toMillis(), counted.toMillis());
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
        return new Counted(cycles, violations, clientCpuNanos, commands,
                handOffs == null ? HandOffLatency.NONE : handOffs.read());
    }
}
