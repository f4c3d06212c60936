package dev.locksmith.it;

import dev.locksmith.testing.FreePorts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One Open Liberty server running the sample as a real process ({@code bin/server run}, which
 * execs the JVM, so the process is the JVM): the server the liberty-sample build prepared, with
 * its own output folder, a free loopback port and the given environment. Started means the
 * sample application and the server both reported themselves started, read from the server's
 * own console, not guessed.
 */
final class LibertyServer implements SampleServer {
    // Both: the application started, and the server opened its ports (ready to run a smarter planet).
    private static final List<String> STARTED = List.of("CWWKZ0001I", "CWWKF0011I");
    // application failed, server failed to start, port in use
    private static final List<String> FAILURES = List.of("CWWKZ0002E", "CWWKE0005E", "CWWKO0221E");
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);
    private static final List<Process> RUNNING = Collections.synchronizedList(new ArrayList<>());

    static {
        // If the test JVM ends without closing us (an abort, a failsafe timeout), take the servers along.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(RUNNING).forEach(Process::destroyForcibly)));
    }

    private final String name;
    private final String features;
    private final Path outputDir;
    private final Map<String, String> environment;
    private final List<String> console = Collections.synchronizedList(new ArrayList<>());
    private int httpPort;
    private Process process;

    private LibertyServer(String name, String features, Path outputDir, Map<String, String> environment) {
        this.name = name;
        this.features = features;
        this.outputDir = outputDir;
        this.environment = Map.copyOf(environment);
    }

    /**
     * Starts a server and waits until the sample application has started.
     *
     * @param name        the server's name in logs and in {@code sample.instance}
     * @param features    the feature set: {@code sample}, {@code lean} or {@code full} (config/features/*.xml)
     * @param workDir     where its output folder goes
     * @param environment settings: Liberty variables and MicroProfile Config keys as environment variables
     */
    static LibertyServer start(String name, String features, Path workDir, Map<String, String> environment) {
        LibertyServer server = new LibertyServer(name, features, workDir.resolve(name), environment);
        server.launch();
        return server;
    }

    @Override
    public void restart() {
        launch();
    }

    private void launch() {
        Path home = Path.of(System.getProperty("sample.liberty.home", "../liberty-sample/target/liberty/wlp"));
        String serverName = System.getProperty("sample.liberty.server", "locksmithSample");
        Path script = home.resolve("bin/server");
        if (!Files.isExecutable(script)) {
            throw new IllegalStateException("No Liberty server at " + home.toAbsolutePath() + "; build it first with"
                    + " ./mvnw -pl liberty-sample -am package (the integration tests run from the reactor do that)");
        }
        httpPort = FreePorts.next();
        console.clear();
        ProcessBuilder builder = new ProcessBuilder(script.toString(), "run", serverName).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("WLP_OUTPUT_DIR", outputDir.toAbsolutePath().toString());
        // Quick start over peak speed: these servers live for minutes and serve a few hundred requests.
        env.put("JVM_ARGS", "-Xmx512m -XX:TieredStopAtLevel=1");
        env.put("HTTP_HOST", "127.0.0.1");
        env.put("HTTP_PORT", Integer.toString(httpPort));
        // Used only by feature sets that open these ports (full: messaging, ORB).
        env.put("JMS_PORT", Integer.toString(FreePorts.next()));
        env.put("IIOP_PORT", Integer.toString(FreePorts.next()));
        env.put("SAMPLE_INSTANCE", name);
        env.put("SAMPLE_FEATURES", features);
        env.putAll(environment);
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not run " + script, e);
        }
        RUNNING.add(process);
        CompletableFuture<Void> started = new CompletableFuture<>();
        Process launched = process;
        Thread reader = new Thread(() -> readConsole(launched, started), "liberty-" + name + "-console");
        reader.setDaemon(true);
        reader.start();
        try {
            started.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            String log = describe();
            kill();
            throw new IllegalStateException("Liberty server " + name + " did not start the sample within "
                    + START_TIMEOUT + ": " + (e instanceof ExecutionException ? e.getCause().getMessage() : "timed out")
                    + "\n" + log, e);
        } catch (InterruptedException e) {
            kill();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + name, e);
        }
    }

    private void readConsole(Process launched, CompletableFuture<Void> started) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(launched.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            Set<String> seen = new HashSet<>();
            while ((line = in.readLine()) != null) {
                console.add(line);
                for (String message : STARTED) {
                    if (line.contains(message)) {
                        seen.add(message);
                    }
                }
                if (seen.size() == STARTED.size()) {
                    started.complete(null);
                }
                for (String failure : FAILURES) {
                    if (line.contains(failure)) {
                        started.completeExceptionally(new IllegalStateException(line));
                    }
                }
            }
        } catch (IOException e) {
            // the process was killed; its console ends here
        }
        started.completeExceptionally(new IllegalStateException("the server process ended"));
    }

    @Override
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + httpPort);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    @Override
    public void kill() {
        end(true);
    }

    /**
     * Stops the server the normal way (SIGTERM: Liberty's orderly shutdown), then kills it if
     * it has not ended within a minute.
     */
    @Override
    public void stop() {
        end(false);
    }

    @Override
    public List<String> log() {
        Path messages = logs().resolve("messages.log");
        try {
            return Files.exists(messages) ? Files.readAllLines(messages, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + messages, e);
        }
    }

    private Path logs() {
        return outputDir.resolve(System.getProperty("sample.liberty.server", "locksmithSample")).resolve("logs");
    }

    private void end(boolean crash) {
        Process running = process;
        if (running == null || !running.isAlive()) {
            return;
        }
        try {
            if (crash) {
                running.destroyForcibly();
            } else {
                running.destroy();
            }
            if (!running.waitFor(1, TimeUnit.MINUTES)) {
                running.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            running.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            RUNNING.remove(running);
        }
    }

    @Override
    public String describe() {
        Path logs = logs();
        StringBuilder text = new StringBuilder("---- Liberty server ").append(name).append(" (").append(features)
                .append(" features, ").append(baseUri())
                .append(isAlive() ? ", running" : ", not running").append("), logs in ").append(logs.toAbsolutePath())
                .append("\n---- console, last 80 lines:\n");
        List<String> lines;
        synchronized (console) {
            lines = List.copyOf(console);
        }
        lines.subList(Math.max(0, lines.size() - 80), lines.size()).forEach(line -> text.append(line).append('\n'));
        Path messages = logs.resolve("messages.log");
        if (Files.exists(messages)) {
            try {
                List<String> all = Files.readAllLines(messages, StandardCharsets.UTF_8);
                text.append("---- messages.log, last 120 lines:\n");
                all.subList(Math.max(0, all.size() - 120), all.size()).forEach(line -> text.append(line).append('\n'));
            } catch (IOException | UncheckedIOException e) {
                text.append("(messages.log unreadable: ").append(e).append(")\n");
            }
        }
        return text.toString();
    }

    @Override
    public String toString() {
        return "Liberty server " + name + " (" + features + " features) on " + baseUri();
    }
}
