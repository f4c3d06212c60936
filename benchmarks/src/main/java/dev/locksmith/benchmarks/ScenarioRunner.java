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
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Measures a rotation: one scenario, or the scale rows of one kind of lock (2, 8 and 32
 * processes), for several contenders. Every (scenario, contender) pair gets worker JVMs of its own
 * that start once and warm up once (the JIT compiler settles); then the pairs take turns: a few
 * settling turns shaped like the counted ones, whose start after a pause the warm-up did not
 * have, and then the counted repetitions. Taking turns makes drift on the machine hit every
 * contender alike, and in the scale rows every N alike, so that N = 32 against N = 2 is a ratio of
 * interleaved medians too. Before every window the servers are emptied; over its counted part the
 * servers' command counters are read, and where the scenario writes to the database, the
 * statements it ran. The workers are stopped at the end, also when something fails.
 */
final class ScenarioRunner {
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration FINISH = Duration.ofSeconds(90);
    /** Time for the GO line to reach every worker before the window opens. */
    private static final long START_DELAY_MILLIS = 300;
    /** Uncounted cycling before each counted window of a warm worker: refills caches and pools. */
    static final Duration LEAD_IN = Duration.ofSeconds(1);

    private final RedisServers servers;
    private final BenchmarkDatabase database;
    private final BenchmarkOptions options;
    private final Path workDirectory;

    /**
     * @param database      the PostgreSQL of the scenarios that write to one, null if none is chosen
     * @param workDirectory where the occupancy files live; the caller deletes it
     */
    ScenarioRunner(RedisServers servers, BenchmarkDatabase database, BenchmarkOptions options, Path workDirectory) {
        this.servers = servers;
        this.database = database;
        this.options = options;
        this.workDirectory = workDirectory;
    }

    /** One scenario measured for one contender, with its worker JVMs and its hand-off probe (or null). */
    private record Pair(Scenario scenario, Contender contender, List<WorkerJvm> workers, HandOffProbe handOffs) {
    }

    /**
     * @param rotation scenarios of one group on the same servers (see {@link BenchmarkOptions#rotations()})
     * @param measured called with each measurement as soon as it is taken
     * @throws IllegalStateException if a worker JVM failed, with its output
     */
    void run(List<Scenario> rotation, Consumer<Measurement> measured) throws InterruptedException {
        Scenario.Group group = rotation.get(0).group();
        List<RedisNode> redis = servers.of(rotation.get(0).servers());
        String redisUris = redis.stream().map(RedisNode::uri).collect(Collectors.joining(","));
        String databaseUrl = rotation.get(0).usesDatabase() ? database.workerUrl() : BenchmarkWorker.NO_DATABASE;
        List<Pair> pairs = new ArrayList<>();
        List<Path> probeFiles = new ArrayList<>();
        try {
            for (Scenario scenario : rotation) {
                List<Pair> started = new ArrayList<>();
                for (Contender contender : options.contenders(scenario)) {
                    String run = (contender + "-" + scenario).toLowerCase(Locale.ROOT);
                    Path occupancy = workDirectory.resolve(run + ".occupancy");
                    Path handOff = workDirectory.resolve(run + ".handoff");
                    probeFiles.add(occupancy);
                    probeFiles.add(handOff);
                    HandOffProbe handOffs = scenario.measuresHandOffs() ? HandOffProbe.map(handOff) : null;
                    List<WorkerJvm> jvms = new ArrayList<>();
                    Pair pair = new Pair(scenario, contender, jvms, handOffs);
                    pairs.add(pair);
                    started.add(pair);
                    for (int jvm = 0; jvm < scenario.jvms(); jvm++) {
                        jvms.add(WorkerJvm.start(List.of(contender.name(), scenario.name(), run, Integer.toString(jvm),
                                occupancy.toString(), handOff.toString(), redisUris, databaseUrl), workDirectory));
                    }
                }
                // A scenario's JVMs start at once: their start-up overlaps, and nobody is measured yet.
                for (Pair pair : started) {
                    for (WorkerJvm worker : pair.workers()) {
                        worker.await(BenchmarkWorker.READY, STARTUP);
                    }
                }
                for (Pair pair : started) {
                    window(pair, redis, options.warmup(scenario), Duration.ZERO);
                }
            }
            Duration measure = options.measure(group);
            for (int turn = 1; turn <= options.settlingTurns(); turn++) {
                for (Pair pair : pairs) {
                    window(pair, redis, LEAD_IN, measure);
                }
            }
            for (int repetition = 1; repetition <= options.repetitions(group); repetition++) {
                for (Pair pair : pairs) {
                    Counted counted = window(pair, redis, LEAD_IN, measure);
                    measured.accept(new Measurement(pair.contender(), pair.scenario(), repetition,
                            measure.toMillis() / 1000.0, counted.cycles(), counted.violations(),
                            counted.clientCpuNanos(), counted.commands(), counted.statements(), counted.handOffs()));
                }
            }
        } finally {
            pairs.forEach(pair -> pair.workers().forEach(WorkerJvm::close));
            pairs.stream().map(Pair::handOffs).filter(Objects::nonNull).forEach(HandOffProbe::close);
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
                           DatabaseStats statements, HandOffLatency handOffs) {
    }

    /**
     * Runs one window on every worker of one pair, on emptied servers. The database is left as it
     * is: its rows are a few per lock name, and the fence table's tokens stay below the next
     * holder's, whose token Redis seeds from its clock when FLUSHALL emptied the counter.
     */
    private Counted window(Pair pair, List<RedisNode> redis, Duration uncounted, Duration counted)
            throws InterruptedException {
        List<WorkerJvm> workers = pair.workers();
        HandOffProbe handOffs = pair.handOffs();
        redis.forEach(node -> node.command("FLUSHALL"));
        if (handOffs != null) {
            handOffs.reset();
        }
        Window window = Window.startingIn(START_DELAY_MILLIS, uncounted.toMillis(), counted.toMillis());
        workers.forEach(worker -> worker.send(window.toLine()));
        boolean writes = pair.scenario().usesDatabase();
        Window.sleepUntil(window.measureFrom());
        long[] serverCpu = CommandStats.reset(redis);
        if (writes) {
            database.resetStatements();
        }
        Window.sleepUntil(window.measureUntil());
        CommandStats commands = CommandStats.read(redis, serverCpu);
        DatabaseStats statements = writes ? database.statements() : DatabaseStats.NONE;
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
        return new Counted(cycles, violations, clientCpuNanos, commands, statements,
                handOffs == null ? HandOffLatency.NONE : handOffs.read());
    }
}
