package dev.locksmith.it.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.testing.Await;
import dev.locksmith.testing.JavaProcess;
import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.RespClient;
import dev.locksmith.testing.StallingProxy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A randomized fault run in the spirit of Jepsen. Three worker JVMs of eight threads each lock a
 * handful of names through a proxy to one Redis and write, under each lock, to a
 * {@link FencedResource} with their fencing tokens. Meanwhile faults are injected at random:
 * {@code CLIENT KILL}, Redis paused shorter and longer than the lease, Redis restarted with and
 * without its data, a worker killed with {@code kill -9}, the proxy stalled, and Redis answering
 * BUSY or holding writes back ({@code CLIENT PAUSE WRITE}) while locks are released and handed over. Afterwards: no two
 * holds that their unlock confirmed overlapped, the resource accepted no token lower than one
 * before it, and no accepted write is missing.
 *
 * <p>{@code -Dfaultrun.duration=PT10M} runs longer (default 60 s); {@code -Dfaultrun.seed=}
 * replays a run's choice of faults. The report goes to {@code target/faultrun-report.md}.
 */
@Isolated // its timings (failovers, leases, a timed random run) are measured with nothing else running
class FaultRunIT {
    private static final Duration LEASE = Duration.ofMillis(1500);
    private static final int WORKERS = 3;
    private static final int THREADS = 8;
    /** Lock managers per worker JVM: 3 x 4 = 12 processes contend, as many application servers would. */
    private static final int MANAGERS = 4;
    private static final String NAMES = "ledger,stock,invoice,shipping";

    private final List<JavaProcess> workers = new ArrayList<>();
    private int workersStarted;

    @Test
    @Timeout(value = 3, unit = TimeUnit.HOURS) // the run's own duration decides; failsafe's fork timeout backs it up
    void noTwoHoldersNoStaleWriteAcceptedNoWriteLostUnderRandomFaults() throws Exception {
        Duration duration = Duration.parse(System.getProperty("faultrun.duration", "PT60S"));
        long seed = Long.getLong("faultrun.seed", System.nanoTime());
        System.out.println("Fault run: seed " + seed + " (-Dfaultrun.seed=" + seed + " replays it), " + duration);
        Random random = new Random(seed);
        Path stop = Files.createTempDirectory("faultrun-").resolve("stop");
        Map<Fault, Integer> faults = new EnumMap<>(Fault.class);
        try (LocalRedisServer redis = LocalRedisServer.start();
             LocalRedisServer store = LocalRedisServer.start();
             StallingProxy network = StallingProxy.inFrontOf(redis)) {
            try {
                for (int i = 0; i < WORKERS; i++) {
                    startWorker(network, store, stop);
                }
                long end = System.nanoTime() + duration.toNanos();
                while (System.nanoTime() < end) {
                    Thread.sleep(500 + random.nextInt(1500)); // quiet time between faults
                    Fault fault = Fault.values()[random.nextInt(Fault.values().length)];
                    inject(fault, random, redis, network, store, stop);
                    faults.merge(fault, 1, Integer::sum);
                }
                Files.createFile(stop);
                for (JavaProcess worker : workers) {
                    if (worker.isAlive()) {
                        worker.awaitLine("DONE", Duration.ofMinutes(1));
                    }
                }
            } finally {
                network.resume();
                if (redis.isRunning()) {
                    redis.resume();
                }
                workers.forEach(JavaProcess::close);
            }
            FaultRunCheck check = check(store, faults);
            String report = check.report(seed, duration, WORKERS, THREADS, MANAGERS, LEASE);
            Files.writeString(Path.of(System.getProperty("faultrun.report", "target/faultrun-report.md")), report);
            System.out.println(report);

            assertThat(check.violations()).as("holds of one name that overlapped").isEmpty();
            assertThat(check.outOfOrder()).as("writes accepted out of token order").isEmpty();
            assertThat(check.missing()).as("accepted writes missing from the resource").isEmpty();
            assertThat(check.acceptedWrites()).as("the run did work").isGreaterThan(200);
            Await.until("every lock's state left Redis", LEASE.multipliedBy(4), () -> lockStateLeft(redis).isEmpty());
        }
    }

    private void startWorker(StallingProxy network, LocalRedisServer store, Path stop) {
        String name = "w" + (++workersStarted);
        JavaProcess worker = JavaProcess.start(FaultRunWorker.class, name, network.uri(), store.uri(), NAMES,
                Integer.toString(THREADS), Long.toString(LEASE.toMillis()), stop.toString(), Integer.toString(MANAGERS));
        workers.add(worker);
        worker.awaitLine("READY", Duration.ofMinutes(1));
    }

    private void inject(Fault fault, Random random, LocalRedisServer redis, StallingProxy network,
            LocalRedisServer store, Path stop) throws InterruptedException, IOException {
        switch (fault) {
            case CLIENT_KILL -> RespClient.call(redis.port(), "CLIENT", "KILL", "TYPE", "normal");
            case PAUSE_SHORTER_THAN_LEASE -> pause(redis, fraction(random, 0.2, 0.8));
            case PAUSE_LONGER_THAN_LEASE -> pause(redis, fraction(random, 1.2, 2.5));
            case RESTART_KEEPING_DATA -> {
                redis.command("SAVE");
                redis.kill();
                redis.restart();
            }
            case RESTART_LOSING_DATA -> {
                redis.kill();
                Files.deleteIfExists(redis.directory().resolve("dump.rdb"));
                redis.restart();
            }
            case KILL_HOLDER_JVM -> {
                List<JavaProcess> alive = workers.stream().filter(JavaProcess::isAlive).toList();
                alive.get(random.nextInt(alive.size())).kill();
                startWorker(network, store, stop);
            }
            case STALL_NETWORK -> {
                network.stall();
                Thread.sleep(fraction(random, 0.2, 2.0).toMillis());
                network.resume();
            }
            case BUSY_WHILE_RELEASING -> busy(redis, fraction(random, 0.2, 0.8));
            case WRITES_PAUSED_WHILE_RELEASING -> {
                // Shorter and longer than the workers' 500 ms command timeout: some releases are
                // answered late, some time out and run afterwards.
                Duration pause = fraction(random, 0.2, 1.0);
                redis.command("CLIENT", "PAUSE", Long.toString(pause.toMillis()), "WRITE");
                Thread.sleep(pause.toMillis());
            }
        }
    }

    /**
     * Keeps Redis busy with a script that never ends, so that every other command is answered
     * BUSY, for {@code howLong}; then kills the script.
     */
    private static void busy(LocalRedisServer redis, Duration howLong) throws InterruptedException {
        redis.command("CONFIG", "SET", "busy-reply-threshold", "20"); // again: a restart forgets it
        Thread script = new Thread(() -> {
            try {
                redis.command("EVAL", "while true do end", "0");
            } catch (RuntimeException killed) {
                // SCRIPT KILL ends the script's own call with an error, and that is its end.
            }
        }, "fault-busy-script");
        script.setDaemon(true);
        script.start();
        Await.until("Redis answers BUSY", Duration.ofSeconds(10), () -> !answers(redis));
        Thread.sleep(howLong.toMillis());
        Await.until("the busy script is killed", Duration.ofSeconds(10), () -> {
            try {
                redis.command("SCRIPT", "KILL");
            } catch (RuntimeException notBusy) {
                // NOTBUSY: it ended already.
            }
            return answers(redis);
        });
        script.join(10_000);
    }

    private static boolean answers(LocalRedisServer redis) {
        try {
            redis.command("PING");
            return true;
        } catch (RuntimeException busy) {
            return false;
        }
    }

    private static void pause(LocalRedisServer redis, Duration howLong) throws InterruptedException {
        redis.pause();
        try {
            Thread.sleep(howLong.toMillis());
        } finally {
            redis.resume();
        }
    }

    private static Duration fraction(Random random, double from, double to) {
        return Duration.ofMillis((long) (LEASE.toMillis() * (from + random.nextDouble() * (to - from))));
    }

    private FaultRunCheck check(LocalRedisServer store, Map<Fault, Integer> faults) {
        List<HoldRecord> holds = new ArrayList<>();
        for (int i = 0; i < workers.size(); i++) {
            String worker = "w" + (i + 1);
            workers.get(i).output().stream().filter(line -> line.startsWith("HOLD "))
                    .forEach(line -> holds.add(HoldRecord.parse(worker, line)));
        }
        Map<String, List<Long>> accepted = new LinkedHashMap<>();
        long stale = 0;
        for (String name : NAMES.split(",")) {
            @SuppressWarnings("unchecked")
            List<String> log = (List<String>) RespClient.call(store.port(), "LRANGE", FencedResource.logKey(name), "0", "-1");
            accepted.put(name, log.stream().map(entry -> Long.parseLong(entry.substring(0, entry.indexOf(' ')))).toList());
            Object rejected = RespClient.call(store.port(), "GET", FencedResource.staleKey(name));
            stale += rejected == null ? 0 : Long.parseLong(rejected.toString());
        }
        return new FaultRunCheck(holds, faults, accepted, stale);
    }

    @SuppressWarnings("unchecked")
    private static List<String> lockStateLeft(LocalRedisServer redis) {
        return ((List<String>) RespClient.call(redis.port(), "KEYS", "faultrun:*")).stream()
                .filter(key -> !key.endsWith(":fence") && !key.contains(":unlock:"))
                .toList();
    }
}
