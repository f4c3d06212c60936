package dev.locksmith.benchmarks;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LocalRedisServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.jar.JarFile;

/**
 * Which of the library's classes one contended {@code lock()} across two processes runs, in
 * order, on which thread: process A holds the lock, process B's thread waits for it, A releases
 * and B takes it. Both JVMs record every call of every class of the library with the JDK's
 * method tracing ({@code jdk.MethodTrace}, JDK 25 or later); the path is what both recorded while
 * B's traced {@code lock()} ran, after three hand-offs of the same shape that let the processes
 * settle. Each release waits until B's process is in the lock's ring, so that it offers B the
 * lock: the hand-over between processes, as it goes while both keep contending. It is the count of the rooms' issue ("classes visited, in order"), made
 * by the JVM instead of by reading the code.
 *
 * <pre>
 * /path/to/jdk-25/bin/java -cp benchmarks/target/locksmith-benchmarks.jar dev.locksmith.benchmarks.PathTrace
 * </pre>
 *
 * It starts its own {@code redis-server} on a free loopback port and writes
 * {@code benchmarks/target/path-trace.md}.
 */
public final class PathTrace {
    static final String NAME = "path";
    /** What a traced process's answers start with, apart from what its JVM prints. */
    static final String ANSWER = "path-trace: ";
    /** Hand-offs before the traced one, so that B is subscribed and in the ring as it would be. */
    static final int SETTLING_HAND_OFFS = 3;

    private PathTrace() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2) {
            runProcess(args[0], args[1]);
            return;
        }
        if (Runtime.version().feature() < 25) {
            throw new IllegalStateException("Method tracing needs JDK 25 or later; this is " + Runtime.version()
                    + ": run this class with a JDK 25 java");
        }
        Path work = Files.createTempDirectory("path-trace-");
        Path settings = work.resolve("trace.jfc");
        Files.writeString(settings, TraceRecordings.settings(libraryClasses()), StandardCharsets.UTF_8);
        Path holderRecording = work.resolve("holder.jfr");
        Path waiterRecording = work.resolve("waiter.jfr");
        try (LocalRedisServer redis = LocalRedisServer.start();
             TracedProcess holder = TracedProcess.start("holder", redis.uri(), settings, holderRecording);
             TracedProcess waiter = TracedProcess.start("waiter", redis.uri(), settings, waiterRecording)) {
            holder.await("READY");
            waiter.await("READY");
            for (int handOff = 0; handOff <= SETTLING_HAND_OFFS; handOff++) {
                holder.tell("LOCK");
                holder.await("HELD");
                waiter.tell(handOff == SETTLING_HAND_OFFS ? "TRACED" : "LOCK");
                awaitWaiterInRing(redis);
                holder.tell("UNLOCK");
                holder.await("UNLOCKED");
                waiter.await("HELD");
                waiter.tell("UNLOCK");
                waiter.await("UNLOCKED");
            }
            holder.tell("EXIT");
            waiter.tell("EXIT");
            holder.awaitExit();
            waiter.awaitExit();
        }
        String report = TraceRecordings.report(holderRecording, waiterRecording);
        Path out = Path.of("benchmarks", "target");
        Files.createDirectories(out);
        Files.writeString(out.resolve("path-trace.md"), report, StandardCharsets.UTF_8);
        System.out.println(report);
    }

    /**
     * @return every class of the library in this JVM's class path, the benchmarks' own left out
     */
    private static List<String> libraryClasses() throws IOException {
        List<String> classes = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!entry.endsWith(".jar")) {
                continue;
            }
            try (JarFile jar = new JarFile(entry)) {
                jar.stream().map(java.util.zip.ZipEntry::getName)
                        .filter(name -> name.startsWith("dev/locksmith/") && name.endsWith(".class"))
                        .filter(name -> !name.startsWith("dev/locksmith/benchmarks/") && !name.startsWith("dev/locksmith/testing/"))
                        .filter(name -> !name.endsWith("package-info.class") && !name.endsWith("module-info.class"))
                        .map(name -> name.substring(0, name.length() - ".class".length()).replace('/', '.'))
                        .forEach(classes::add);
            }
        }
        classes.add(PathTrace.class.getName());
        return classes;
    }

    /**
     * One traced process: a lock manager of its own whose taking thread locks {@link #NAME} when
     * told and unlocks it when told; the holder's unlock and the waiter's traced lock are the
     * windows of the report.
     */
    private static void runProcess(String role, String redisUri) throws Exception {
        PrintStream out = System.out;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (LockManager locks = Locksmith.builder().redisUri(redisUri).build()) {
            DistributedLock lock = locks.getLock(NAME);
            Thread taker = null;
            CountDownLatch release = null;
            out.println(ANSWER + "READY");
            for (String line = in.readLine(); line != null && !line.equals("EXIT"); line = in.readLine()) {
                switch (line) {
                    case "LOCK", "TRACED" -> {
                        CountDownLatch released = new CountDownLatch(1);
                        boolean traced = line.equals("TRACED");
                        boolean holder = role.equals("holder");
                        taker = new Thread(() -> {
                            if (traced) {
                                tracedLock(lock);
                            } else {
                                lock.lock();
                            }
                            out.println(ANSWER + "HELD");
                            awaitUninterruptibly(released);
                            if (holder) {
                                tracedUnlock(lock);
                            } else {
                                lock.unlock();
                            }
                        }, role + "-taker");
                        release = released;
                        taker.start();
                    }
                    case "UNLOCK" -> {
                        release.countDown();
                        taker.join();
                        out.println(ANSWER + "UNLOCKED");
                    }
                    default -> throw new IllegalArgumentException("Unknown command " + line);
                }
            }
        }
    }

    /**
     * Waits until B's process is in the lock's ring (the fifth field of the exclusive value,
     * {@code exclusive.lua}), so that A's release offers B the lock: the path under test.
     */
    private static void awaitWaiterInRing(LocalRedisServer redis) {
        String key = "locksmith:{" + NAME + "}";
        Await.until("the waiting process in the ring of " + NAME, Duration.ofSeconds(10), () -> {
            String value = redis.command("GET", key);
            String[] fields = value == null ? new String[0] : value.split("\\|", -1);
            return fields.length > 4 && !fields[4].isEmpty();
        }, () -> "the lock's value is " + redis.command("GET", key));
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while holding " + NAME, e);
        }
    }

    /**
     * B's traced call: from its start to its end, what B's threads ran is the path's B side.
     */
    static void tracedLock(DistributedLock lock) {
        lock.lock();
    }

    /**
     * A's release: from its start to the end of B's traced call, what A's threads ran is the
     * path's A side (A's watch of its offer runs on its scheduler, after this returns).
     */
    static void tracedUnlock(DistributedLock lock) {
        lock.unlock();
    }
}
