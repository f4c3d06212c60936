package dev.locksmith.benchmarks;

import dev.locksmith.testing.Await;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Counts the bytes a client allocates per lock+unlock cycle, on the calling thread and on all the
 * JVM's threads together (Lettuce's I/O threads, Locksmith's own), for the same contenders and locks as
 * {@link ScriptInstructions}, one thread cycling on one name of a {@code redis-server} the tool starts:
 * what a cycle costs the client's heap does not depend on the machine's load, where its CPU time does.
 *
 * <pre>
 * java -cp benchmarks/target/locksmith-benchmarks.jar dev.locksmith.benchmarks.AllocationPerCycle \
 *     [--cycles 50000] [--out benchmarks/target/allocation-per-cycle.md]
 * </pre>
 *
 * Threads that start during the counted cycles are not counted; none of the contenders starts one per cycle.
 */
public final class AllocationPerCycle {
    private static final int WARM_UP_CYCLES = 20_000;
    private static final String NAME = "allocation";

    private AllocationPerCycle() {
    }

    public static void main(String[] args) throws Exception {
        CycleToolOptions options = CycleToolOptions.parse("AllocationPerCycle", args,
                new CycleToolOptions(50_000, Path.of("benchmarks", "target", "allocation-per-cycle.md")));
        int cycles = options.cycles();
        Path out = options.out();
        int port = ScriptInstructions.freePort();
        Process server = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        String uri = "redis://127.0.0.1:" + port;
        RedisClient admin = RedisClient.create(uri);
        StringBuilder report = new StringBuilder("# Client bytes allocated per lock+unlock cycle\n\n")
                .append("One thread, one name, ").append(cycles).append(" counted cycles after ").append(WARM_UP_CYCLES)
                .append(" uncounted (`AllocationPerCycle`), Java ").append(Runtime.version().feature()).append(".\n\n")
                .append("| Contender, kind | Calling thread, bytes | All threads, bytes |\n|---|---:|---:|\n");
        try {
            Await.until("redis-server answers", Duration.ofSeconds(20), () -> {
                try (StatefulRedisConnection<String, String> probe = admin.connect()) {
                    return "PONG".equals(probe.sync().ping());
                }
            });
            try (StatefulRedisConnection<String, String> redis = admin.connect()) {
                for (ScriptInstructions.Target target : ScriptInstructions.targets()) {
                    long[] bytes = measure(target, uri, cycles);
                    redis.sync().flushall();
                    String row = String.format(Locale.ROOT, "| %s | %,d | %,d |%n", target.label(), bytes[0] / cycles,
                            bytes[1] / cycles);
                    System.err.print(row);
                    report.append(row);
                }
            }
        } finally {
            admin.shutdown();
            server.destroy();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, report, StandardCharsets.UTF_8);
        System.err.println("Wrote " + out);
    }

    /** @return {bytes the calling thread allocated, bytes all threads allocated} over the counted cycles */
    private static long[] measure(ScriptInstructions.Target target, String uri, int cycles) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (LockClient client = target.connect().apply(uri)) {
            CycleLock lock = client.lockFor(target.kind(), NAME);
            ScriptInstructions.run(lock, WARM_UP_CYCLES);
            long caller = Thread.currentThread().getId();
            Map<Long, Long> before = allocated(threads);
            ScriptInstructions.run(lock, cycles);
            Map<Long, Long> after = allocated(threads);
            long all = 0;
            for (Map.Entry<Long, Long> thread : before.entrySet()) {
                Long now = after.get(thread.getKey());
                if (now != null) {
                    all += now - thread.getValue();
                }
            }
            return new long[] {after.get(caller) - before.get(caller), all};
        }
    }

    private static Map<Long, Long> allocated(com.sun.management.ThreadMXBean threads) {
        long[] ids = threads.getAllThreadIds();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        Map<Long, Long> byThread = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] >= 0) {
                byThread.put(ids[i], bytes[i]);
            }
        }
        return byThread;
    }
}
