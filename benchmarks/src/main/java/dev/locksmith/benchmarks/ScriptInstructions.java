package dev.locksmith.benchmarks;

import dev.locksmith.testing.Await;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts the machine instructions a {@code redis-server} executes per lock+unlock cycle, for
 * Locksmith, Redisson and the raw two-EVALSHA limit, each on a server of its own run under Valgrind's
 * callgrind: the one figure of a lock's server-side cost that the machine's load cannot move (the same
 * binary and the same requests execute the same instructions, however busy the CPUs are), where
 * {@code INFO commandstats}' microseconds are wall time that a preempted Redis inflates.
 *
 * <p>Each contender warms up, then callgrind's counters are zeroed, one thread runs the counted cycles
 * on one name, and the counters are dumped before anything else happens. Reported per cycle: the
 * instructions inside {@code EVALSHA} (the scripts and the commands they run), those of the whole
 * process (reading requests, writing replies, the event loop included), and the Redis calls.
 *
 * <pre>
 * java -cp benchmarks/target/locksmith-benchmarks.jar dev.locksmith.benchmarks.ScriptInstructions \
 *     [--cycles 2000] [--out benchmarks/target/script-instructions.md]
 * </pre>
 *
 * Needs {@code valgrind} ({@code apt-get install -y valgrind}) and {@code redis-server} on the path.
 */
public final class ScriptInstructions {
    private static final int WARM_UP_CYCLES = 300;
    private static final Duration START_BOUND = Duration.ofSeconds(60);
    private static final String NAME = "script-cost";
    private static final Pattern INCLUSIVE = Pattern.compile("^\\s*([\\d,]+) .*(PROGRAM TOTALS|:evalShaCommand )");

    /** One contender's lock of one kind, as the benchmark drives it. */
    record Target(String contender, Scenario.Kind kind, Function<String, LockClient> connect) {
        String label() {
            return contender + ", " + kind.name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What one target cost per cycle.
     *
     * @param insideScripts instructions inside EVALSHA
     * @param wholeServer   instructions of the whole redis-server process
     * @param calls         Redis calls, scripts and the commands they ran
     * @param scriptCalls   EVALSHA calls
     */
    private record Cost(Target target, double insideScripts, double wholeServer, double calls, double scriptCalls) {
    }

    private ScriptInstructions() {
    }

    public static void main(String[] args) throws Exception {
        CycleToolOptions options = CycleToolOptions.parse("ScriptInstructions", args,
                new CycleToolOptions(2_000, Path.of("benchmarks", "target", "script-instructions.md")));
        int cycles = options.cycles();
        Path out = options.out();
        requireTool("valgrind", "apt-get install -y valgrind");
        requireTool("redis-server", "apt-get install -y redis-server");
        List<Target> targets = targets();
        Path work = Files.createTempDirectory("script-instructions");
        List<Cost> costs = new ArrayList<>();
        for (Target target : targets) {
            Cost cost = measure(target, cycles, work);
            System.err.printf(Locale.ROOT, "%-26s %,10.0f instructions in scripts, %,10.0f in all, %5.2f calls per cycle%n",
                    target.label(), cost.insideScripts(), cost.wholeServer(), cost.calls());
            costs.add(cost);
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, report(costs, cycles), StandardCharsets.UTF_8);
        System.err.println("Wrote " + out);
    }

    /**
     * @return Locksmith's and Redisson's reentrant, write and read locks, and the raw limit
     */
    static List<Target> targets() {
        Function<String, LockClient> locksmith = uri -> new LocksmithClient(Scenario.Servers.ONE, List.of(uri));
        Function<String, LockClient> redisson = uri -> RedissonLockClient.connect(Scenario.Servers.ONE, List.of(uri));
        List<Target> targets = new ArrayList<>();
        for (String contender : List.of("Locksmith", "Redisson")) {
            for (Scenario.Kind kind : List.of(Scenario.Kind.REENTRANT, Scenario.Kind.WRITE, Scenario.Kind.READ)) {
                targets.add(new Target(contender, kind, contender.equals("Locksmith") ? locksmith : redisson));
            }
        }
        targets.add(new Target("Raw: 2 EVALSHA", Scenario.Kind.REENTRANT, RawScriptClient::new));
        return targets;
    }

    /**
     * Runs cycles of one thread's lock+unlock with an empty critical section.
     */
    static void run(CycleLock lock, int cycles) {
        for (int i = 0; i < cycles; i++) {
            lock.cycle(exclusive -> 0);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static Cost measure(Target target, int cycles, Path work) throws Exception {
        int port = freePort();
        Path profile = work.resolve(target.label().replaceAll("[^A-Za-z0-9]+", "-") + ".callgrind");
        Process server = new ProcessBuilder("valgrind", "--tool=callgrind", "--callgrind-out-file=" + profile,
                "redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no").redirectErrorStream(true)
                .redirectOutput(work.resolve(profile.getFileName() + ".log").toFile()).start();
        String uri = "redis://127.0.0.1:" + port;
        RedisClient admin = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> redis = connect(admin, server)) {
            double[] counted;
            try (LockClient client = target.connect().apply(uri)) {
                CycleLock lock = client.lockFor(target.kind(), NAME);
                run(lock, WARM_UP_CYCLES);
                redis.sync().configResetstat();
                callgrind(server, "-z");
                run(lock, cycles);
                callgrind(server, "-d");
                counted = calls(redis.sync().info("commandstats"));
            }
            Path dump = Path.of(profile + ".1");
            long[] instructions = inclusive(dump);
            redis.sync().flushall();
            return new Cost(target, (double) instructions[1] / cycles, (double) instructions[0] / cycles,
                    counted[0] / cycles, counted[1] / cycles);
        } finally {
            admin.shutdown();
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    private static StatefulRedisConnection<String, String> connect(RedisClient admin, Process server) {
        AtomicReference<StatefulRedisConnection<String, String>> connection = new AtomicReference<>();
        Await.until("redis-server under valgrind answers", START_BOUND, () -> {
            if (!server.isAlive()) {
                throw new IllegalStateException("valgrind redis-server exited with " + server.exitValue());
            }
            try {
                connection.set(admin.connect()); // refused until the server listens, which under valgrind takes seconds
                return true;
            } catch (RuntimeException notYet) {
                return false;
            }
        });
        return connection.get();
    }

    private static void callgrind(Process server, String command) throws IOException, InterruptedException {
        Process control = new ProcessBuilder("callgrind_control", command, Long.toString(server.pid()))
                .redirectErrorStream(true).start();
        String output = new String(control.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (control.waitFor() != 0 || !output.contains("OK")) {
            throw new IllegalStateException("callgrind_control " + command + " " + server.pid() + " failed: " + output);
        }
    }

    /** @return {all calls, script calls} since the last CONFIG RESETSTAT, without the harness's own */
    private static double[] calls(String commandStats) {
        double all = 0;
        double scripts = 0;
        for (String line : commandStats.split("\r?\n")) {
            Matcher stat = Pattern.compile("^cmdstat_([^:]+):calls=(\\d+)").matcher(line);
            if (!stat.find() || List.of("info", "config|resetstat", "ping").contains(stat.group(1))) {
                continue;
            }
            long calls = Long.parseLong(stat.group(2));
            all += calls;
            if (stat.group(1).startsWith("eval")) {
                scripts += calls;
            }
        }
        return new double[] {all, scripts};
    }

    /** @return {the whole process, inside evalShaCommand} from a callgrind dump, in instructions */
    private static long[] inclusive(Path dump) throws IOException, InterruptedException {
        Process annotate = new ProcessBuilder("callgrind_annotate", "--inclusive=yes", dump.toString())
                .redirectErrorStream(true).start();
        String output = new String(annotate.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        annotate.waitFor();
        long total = -1;
        long scripts = 0;
        for (String line : output.split("\n")) {
            Matcher found = INCLUSIVE.matcher(line);
            if (found.find()) {
                long value = Long.parseLong(found.group(1).replace(",", ""));
                if (found.group(2).equals("PROGRAM TOTALS")) {
                    total = value;
                } else {
                    scripts = value;
                }
            }
        }
        if (total < 0) {
            throw new IllegalStateException("callgrind_annotate gave no totals for " + dump + ":\n" + output);
        }
        return new long[] {total, scripts};
    }

    private static String report(List<Cost> costs, int cycles) {
        Cost raw = costs.stream().filter(cost -> cost.target().contender().startsWith("Raw")).findFirst().orElseThrow();
        StringBuilder text = new StringBuilder("# Redis instructions per lock+unlock cycle\n\n")
                .append("One thread, one name, ").append(cycles).append(" counted cycles after ").append(WARM_UP_CYCLES)
                .append(" uncounted, each contender on a redis-server of its own under Valgrind's callgrind ")
                .append("(`ScriptInstructions`). Instructions do not depend on the machine's load.\n\n")
                .append("| Contender, kind | Redis calls | Script calls | Instructions in scripts | Instructions in all")
                .append(" | In scripts / raw's |\n|---|---:|---:|---:|---:|---:|\n");
        for (Cost cost : costs) {
            text.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %,.0f | %,.0f | %.2f |%n", cost.target().label(),
                    cost.calls(), cost.scriptCalls(), cost.insideScripts(), cost.wholeServer(),
                    cost.insideScripts() / raw.insideScripts()));
        }
        return text.toString();
    }

    private static void requireTool(String tool, String install) throws IOException, InterruptedException {
        Process which = new ProcessBuilder("sh", "-c", "command -v " + tool).start();
        if (which.waitFor() != 0) {
            throw new IllegalStateException(tool + " is not on the path: install it (" + install + ")");
        }
    }
}
