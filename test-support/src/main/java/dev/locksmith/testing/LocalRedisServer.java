package dev.locksmith.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A {@code redis-server} process of the machine's own binary, on a free loopback port, with
 * nothing persisted. Readiness is read from the server's own log line, not guessed.
 *
 * <p>Besides starting and stopping, it plays the faults a lock must survive: a crash
 * ({@link #kill()}), a restart on the same port with no data ({@link #restart()},
 * {@link #killAndRestartAfter(Duration)}) and a process pause, as a long GC or a frozen VM
 * would cause ({@link #pause()}, {@link #resume()}). Every process is also killed when the
 * JVM exits, and its temporary directory removed.
 */
public final class LocalRedisServer implements RedisNode {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(15);
    private static final int LOG_TAIL = 40;
    private static final int PORT_ATTEMPTS = 5;
    private static final List<Process> RUNNING = Collections.synchronizedList(new ArrayList<>());
    private static final List<Path> DIRECTORIES = Collections.synchronizedList(new ArrayList<>());

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            synchronized (RUNNING) {
                RUNNING.forEach(Process::destroyForcibly);
            }
            synchronized (DIRECTORIES) {
                DIRECTORIES.forEach(LocalRedisServer::deleteQuietly);
            }
        }, "locksmith-redis-cleanup"));
    }

    private final int port;
    private final Path directory;
    private final List<String> leadingArguments;
    private final List<String> extraArguments;
    private final String readyLine;
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private Process process;
    private boolean paused;
    private CompletableFuture<Void> pendingRestart;

    private LocalRedisServer(int port, Path directory, List<String> leadingArguments, List<String> extraArguments,
                             String readyLine) {
        this.port = port;
        this.directory = directory;
        this.leadingArguments = List.copyOf(leadingArguments);
        this.extraArguments = List.copyOf(extraArguments);
        this.readyLine = readyLine;
    }

    /**
     * Starts a server on a free port.
     *
     * @param extraArguments more {@code redis-server} options, such as {@code --replicaof 127.0.0.1 6380}
     * @return the running server
     * @throws IllegalStateException with the server's log if it does not get ready within 15 s
     */
    public static LocalRedisServer start(String... extraArguments) {
        return startOnFreePorts(() -> new LocalRedisServer(FreePorts.next(), newDirectory(), List.of(),
                List.of(extraArguments), "Ready to accept connections"));
    }

    /**
     * Starts a node in cluster mode, alone in its cluster until introduced to others, with
     * its {@code nodes.conf} in its own directory and its cluster bus on a second free port.
     *
     * @param extraArguments more {@code redis-server} options, such as {@code --cluster-node-timeout 1000}
     * @return the running node
     * @throws IllegalStateException with the node's log if it does not get ready within 15 s
     */
    public static LocalRedisServer startClusterNode(String... extraArguments) {
        return startOnFreePorts(() -> {
            List<String> arguments = new ArrayList<>(List.of("--cluster-enabled", "yes",
                    "--cluster-config-file", "nodes.conf",
                    // by default the bus listens on port + 10000, which may be taken or above 65535
                    "--cluster-port", Integer.toString(FreePorts.next())));
            arguments.addAll(List.of(extraArguments));
            return new LocalRedisServer(FreePorts.next(), newDirectory(), List.of(), arguments,
                    "Ready to accept connections");
        });
    }

    /**
     * Starts a Redis Sentinel on a free port. The configuration file is written into the
     * server's own directory, where Sentinel may rewrite it; the port, bind address and
     * directory are given on the command line.
     *
     * @param configLines the lines of {@code sentinel.conf}, such as {@code sentinel monitor mymaster 127.0.0.1 6380 2}
     * @return the running sentinel
     * @throws IllegalStateException with the sentinel's log if it does not get ready within 15 s
     */
    public static LocalRedisServer startSentinel(List<String> configLines) {
        return startOnFreePorts(() -> {
            Path directory = newDirectory();
            Path config = directory.resolve("sentinel.conf");
            try {
                Files.write(config, configLines, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not write " + config, e);
            }
            return new LocalRedisServer(FreePorts.next(), directory, List.of(config.toString()),
                    List.of("--sentinel"), "Sentinel ID is");
        });
    }

    // A port FreePorts found free may be taken by another process (another build on the same
    // machine) before redis-server binds it; then a server on other ports is started instead.
    private static LocalRedisServer startOnFreePorts(Supplier<LocalRedisServer> server) {
        PortTakenException taken = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            LocalRedisServer created = server.get();
            try {
                created.launch();
                return created;
            } catch (PortTakenException e) {
                taken = e;
            }
        }
        throw new IllegalStateException("Every one of " + PORT_ATTEMPTS + " attempts found its ports taken", taken);
    }

    private static Path newDirectory() {
        try {
            Path directory = Files.createTempDirectory("locksmith-redis-");
            DIRECTORIES.add(directory);
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create a temporary directory for redis-server", e);
        }
    }

    /**
     * Starts the server again on the same port, empty, after {@link #kill()} or {@link #close()}.
     * A cluster node keeps its {@code nodes.conf}, so it rejoins its cluster.
     *
     * @throws IllegalStateException if the server is running, or with its log if it does not get ready
     */
    public synchronized void restart() {
        if (isRunning()) {
            throw new IllegalStateException(this + " is still running; kill() or close() it before restart()");
        }
        log.add("----- restart -----");
        launch();
    }

    /**
     * Kills the server now and starts it again, empty and on the same port, after
     * {@code downtime}, as a crashed node that an orchestrator brings back would.
     *
     * @param downtime how long the port stays closed
     * @return completes once the server accepts connections again, or exceptionally with its log
     */
    public synchronized CompletableFuture<Void> killAndRestartAfter(Duration downtime) {
        kill();
        Executor daemon = task -> {
            Thread thread = new Thread(task, "redis-" + port + "-restart");
            thread.setDaemon(true);
            thread.start();
        };
        CompletableFuture<Void> restart = new CompletableFuture<>();
        pendingRestart = restart;
        CompletableFuture.delayedExecutor(downtime.toMillis(), TimeUnit.MILLISECONDS, daemon).execute(() -> {
            try {
                restartIfStillPending(restart);
                restart.complete(null);
            } catch (RuntimeException e) {
                restart.completeExceptionally(e);
            }
        });
        return restart;
    }

    private synchronized void restartIfStillPending(CompletableFuture<Void> restart) {
        // close() in the meantime cancels the restart: it must not bring back a server the test stopped
        if (pendingRestart == restart) {
            pendingRestart = null;
            restart();
        }
    }

    private synchronized void launch() {
        List<String> command = new ArrayList<>();
        command.add(RedisBinary.path());
        command.addAll(leadingArguments);
        command.addAll(List.of("--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", directory.toString(), "--logfile", ""));
        command.addAll(extraArguments);
        try {
            process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + String.join(" ", command), e);
        }
        paused = false;
        RUNNING.add(process);
        CompletableFuture<Void> ready = new CompletableFuture<>();
        Process started = process;
        Thread reader = new Thread(() -> readLog(started, ready), "redis-" + port + "-log");
        reader.setDaemon(true);
        reader.start();
        try {
            ready.get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            kill();
            throw new IllegalStateException(this + " did not get ready in " + READY_TIMEOUT.toSeconds() + " s. "
                    + describe(), e);
        } catch (InterruptedException e) {
            kill();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while starting " + this, e);
        } catch (Exception e) {
            kill();
            String message = this + " failed to start: " + String.join(" ", command) + "\n" + describe();
            if (log().stream().anyMatch(line -> line.contains("Address already in use"))) {
                throw new PortTakenException(message, e);
            }
            throw new IllegalStateException(message, e);
        }
    }

    private void readLog(Process started, CompletableFuture<Void> ready) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(started.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                log.add(line);
                if (line.contains(readyLine)) {
                    ready.complete(null);
                }
            }
            ready.completeExceptionally(new IllegalStateException("redis-server exited with " + started.waitFor()));
        } catch (IOException | InterruptedException e) {
            ready.completeExceptionally(e);
        }
    }

    @Override
    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String command(String... words) {
        Object reply = RespClient.call(port, words);
        return reply == null ? null : reply.toString();
    }

    /**
     * @param section an INFO section, such as {@code replication} or {@code cluster}
     * @return its fields by name
     * @throws java.io.UncheckedIOException if the server does not answer
     */
    public Map<String, String> info(String section) {
        return fields(RespClient.call(port, "INFO", section));
    }

    /**
     * @return the fields of {@code CLUSTER INFO}, such as {@code cluster_state}
     * @throws java.io.UncheckedIOException if the server does not answer
     * @throws IllegalStateException if the server does not run in cluster mode
     */
    public Map<String, String> clusterInfo() {
        return fields(RespClient.call(port, "CLUSTER", "INFO"));
    }

    private static Map<String, String> fields(Object reply) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : String.valueOf(reply).split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return fields;
    }

    /**
     * @param master the master this server should replicate
     * @return true when this server is a replica of {@code master}, its replication link is up,
     *         and the master counts it online: after a diskless sync the master puts a replica
     *         online only at its first {@code REPLCONF ACK}, which the replica sends up to a
     *         second after its link is up, and until then {@code WAIT} counts it out
     */
    public boolean isSyncedReplicaOf(RedisNode master) {
        Map<String, String> replication = info("replication");
        return "slave".equals(replication.get("role"))
                && Integer.toString(master.port()).equals(replication.get("master_port"))
                && "up".equals(replication.get("master_link_status"))
                && "0".equals(replication.get("master_sync_in_progress"))
                && countsOnline(master);
    }

    private boolean countsOnline(RedisNode master) {
        String me = "port=" + port + ",";
        return fields(master.command("INFO", "replication")).entrySet().stream()
                .anyMatch(field -> field.getKey().startsWith("slave") && field.getValue().contains(me)
                        && field.getValue().contains("state=online"));
    }

    /**
     * @return the process id of the current process, for signals
     * @throws IllegalStateException if the server never started
     */
    public synchronized long pid() {
        if (process == null) {
            throw new IllegalStateException(this + " has no process");
        }
        return process.pid();
    }

    /**
     * @return true while the process is alive (a paused process is alive)
     */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /**
     * Freezes the process with SIGSTOP: its sockets stay open and it answers nothing, as in a
     * long GC pause or a frozen VM. Clients see timeouts, peers see a silent node.
     *
     * @throws IllegalStateException if the server is not running
     */
    public synchronized void pause() {
        signal("STOP");
        paused = true;
    }

    /**
     * Lets a {@link #pause() paused} process run again (SIGCONT); it answers what it was sent
     * meanwhile.
     *
     * @throws IllegalStateException if the server is not running
     */
    public synchronized void resume() {
        signal("CONT");
        paused = false;
    }

    private void signal(String name) {
        if (!isRunning()) {
            throw new IllegalStateException("Cannot send SIG" + name + " to " + this + ": it is not running");
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not run kill -" + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while sending SIG" + name + " to " + this, e);
        }
    }

    /**
     * @return every log line so far, across restarts
     */
    public List<String> log() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    /**
     * @return this server's address and the last lines of its log, for error messages
     */
    public String describe() {
        List<String> lines = log();
        List<String> tail = lines.subList(Math.max(0, lines.size() - LOG_TAIL), lines.size());
        return "--- " + this + " (" + (isRunning() ? "running" : "stopped") + "), last " + tail.size()
                + " log lines:\n" + String.join("\n", tail);
    }

    /**
     * @return the directory the server runs in (its {@code nodes.conf} or {@code sentinel.conf})
     */
    public Path directory() {
        return directory;
    }

    @Override
    public void kill() {
        stop(true);
    }

    @Override
    public void close() {
        stop(false);
    }

    private synchronized void stop(boolean crash) {
        if (pendingRestart != null) {
            pendingRestart.cancel(false);
            pendingRestart = null;
        }
        Process running = process;
        if (running == null || !running.isAlive()) {
            return;
        }
        if (paused && !crash) {
            // a stopped process keeps SIGTERM pending until it runs again
            signal("CONT");
        }
        if (crash) {
            running.destroyForcibly();
        } else {
            running.destroy();
        }
        try {
            if (!running.waitFor(10, TimeUnit.SECONDS)) {
                running.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            running.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        paused = false;
        RUNNING.remove(running);
    }

    private static void deleteQuietly(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // best effort at JVM exit; the directory is in the temporary folder
        }
    }

    /** redis-server could not bind one of its ports: another process took it first. */
    private static final class PortTakenException extends IllegalStateException {
        PortTakenException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    @Override
    public String toString() {
        return (leadingArguments.isEmpty() ? "redis-server" : "redis-sentinel") + " on " + uri();
    }
}
