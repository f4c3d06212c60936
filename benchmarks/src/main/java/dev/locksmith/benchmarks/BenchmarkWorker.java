package dev.locksmith.benchmarks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The main class of a worker JVM: connects one contender (as many separate clients as the
 * scenario has lock managers per JVM), prints {@code READY}, then for every
 * {@code GO} line of a {@link Window} on standard input runs the {@link CycleLoop} and prints
 * {@code RESULT cycles violations cpuNanos}, until its input ends; on a failure it prints
 * {@code FAILED reason} and exits with 1. One worker serves all windows of its contender in one
 * scenario, so the JIT compiler warms it up once. Started by {@link WorkerJvm}; not meant to be
 * run by hand.
 */
public final class BenchmarkWorker {
    static final String READY = "READY";
    static final String RESULT = "RESULT ";
    static final String FAILED = "FAILED ";
    /** The database argument where the scenario uses no database. */
    static final String NO_DATABASE = "-";

    private BenchmarkWorker() {
    }

    /**
     * @param args contender, scenario (enum names), lock name prefix, JVM index, occupancy file,
     *             hand-off file (used where the scenario measures hand-offs), the scenario's
     *             Redis URIs, comma-separated, and the JDBC URL of the benchmark's PostgreSQL, or
     *             {@value #NO_DATABASE} where the scenario uses none
     */
    public static void main(String[] args) {
        try {
            Contender contender = Contender.valueOf(args[0]);
            Scenario scenario = Scenario.valueOf(args[1]);
            String run = args[2];
            int jvm = Integer.parseInt(args[3]);
            Path occupancy = Path.of(args[4]);
            Path handOff = Path.of(args[5]);
            List<String> redisUris = List.of(args[6].split(","));
            String databaseUrl = args[7].equals(NO_DATABASE) ? null : args[7];
            List<LockClient> clients = new ArrayList<>();
            try (OccupancyProbe probe = OccupancyProbe.map(occupancy, scenario.lockCount());
                 HandOffProbe handOffs = scenario.measuresHandOffs() ? HandOffProbe.map(handOff) : null) {
                for (int manager = 0; manager < scenario.managersPerJvm(); manager++) {
                    clients.add(contender.connect(scenario.servers(), redisUris, databaseUrl));
                }
                System.out.println(READY);
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                String go;
                // The parent closes our input when it needs no more windows.
                while ((go = in.readLine()) != null) {
                    runWindow(Window.parse(go), new CycleLoop(clients, scenario, run, jvm, probe, handOffs));
                }
            } finally {
                clients.forEach(LockClient::close);
            }
        } catch (Throwable e) {
            System.out.println(FAILED + e);
            e.printStackTrace(System.out);
            System.exit(1);
        }
        // Redisson and Lettuce may leave non-daemon threads behind after closing.
        System.exit(0);
    }

    private static void runWindow(Window window, CycleLoop loop) throws Exception {
        CompletableFuture<Long> cpu = new CompletableFuture<>();
        Thread cpuClock = new Thread(() -> {
            try {
                cpu.complete(ProcessCpu.during(window));
            } catch (InterruptedException e) {
                cpu.complete(-1L);
            }
        }, "bench-cpu-clock");
        cpuClock.setDaemon(true);
        cpuClock.start();
        CycleLoop.Outcome outcome = loop.run(window);
        System.out.println(RESULT + outcome.cycles() + " " + outcome.violations() + " " + cpu.get());
    }
}
