package dev.locksmith.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@code redis-server} process of the machine's own binary, on a free loopback port, with
 * nothing persisted. Readiness is read from the server's own log line, not guessed.
 */
public final class LocalRedisServer implements RedisNode {
    private static final List<Process> RUNNING = Collections.synchronizedList(new ArrayList<>());

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly)));
    }

    private final int port;
    private final Path directory;
    private final List<String> extraArguments;
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private Process process;

    private LocalRedisServer(int port, List<String> extraArguments) {
        this.port = port;
        this.extraArguments = List.copyOf(extraArguments);
        try {
            this.directory = Files.createTempDirectory("locksmith-redis-" + port + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts a server on a free port.
     *
     * @param extraArguments more {@code redis-server} options, such as {@code --replicaof 127.0.0.1 6380}
     */
    public static LocalRedisServer start(String... extraArguments) {
        LocalRedisServer server = new LocalRedisServer(FreePorts.next(), List.of(extraArguments));
        server.launch();
        return server;
    }

    /**
     * Starts the server again on the same port, empty, after {@link #kill()} or {@link #close()}.
     */
    public void restart() {
        launch();
    }

    private void launch() {
        List<String> command = new ArrayList<>(List.of(RedisBinary.path(), "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", directory.toString(),
                "--logfile", ""));
        command.addAll(extraArguments);
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + String.join(" ", command), e);
        }
        RUNNING.add(process);
        CompletableFuture<Void> ready = new CompletableFuture<>();
        Process started = process;
        Thread reader = new Thread(() -> readLog(started, ready), "redis-" + port + "-log");
        reader.setDaemon(true);
        reader.start();
        try {
            ready.get(15, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            close();
            throw new IllegalStateException("redis-server on port " + port + " did not get ready in 15 s. Log:\n"
                    + String.join("\n", log), e);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("redis-server on port " + port + " failed to start. Log:\n"
                    + String.join("\n", log), e);
        }
    }

    private void readLog(Process started, CompletableFuture<Void> ready) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(started.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                log.add(line);
                if (line.contains("Ready to accept connections")) {
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
     * @return the process id, for signals
     */
    public long pid() {
        return process.pid();
    }

    /**
     * @return every log line so far
     */
    public List<String> log() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    @Override
    public void kill() {
        stop(true);
    }

    @Override
    public void close() {
        stop(false);
    }

    private void stop(boolean crash) {
        Process running = process;
        if (running == null || !running.isAlive()) {
            return;
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
        RUNNING.remove(running);
    }

    @Override
    public String toString() {
        return "redis-server on " + uri();
    }
}
