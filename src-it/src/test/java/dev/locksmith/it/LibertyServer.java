package dev.locksmith.it;

import dev.locksmith.testing.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One Open Liberty server running the sample as a real process ({@code bin/server run}, which
 * execs the JVM, so the process is the JVM): the server the liberty-sample build prepared, with
 * one of its feature sets, its own output folder, free loopback ports and the given environment.
 * Started means the sample application and the server both reported themselves started.
 */
final class LibertyServer extends ProcessServer {
    // Both: the application started, and the server opened its ports (ready to run a smarter planet).
    private static final List<String> STARTED = List.of("CWWKZ0001I", "CWWKF0011I");
    // application failed, server failed to start, port in use
    private static final List<String> FAILURES = List.of("CWWKZ0002E", "CWWKE0005E", "CWWKO0221E");
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);

    private final String features;
    private final Path outputDir;
    private final Map<String, String> environment;
    private int httpPort;

    private LibertyServer(String name, String features, Path outputDir, Map<String, String> environment) {
        super(name);
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
        Path script = home.resolve("bin/server");
        if (!Files.isExecutable(script)) {
            throw new IllegalStateException("No Liberty server at " + home.toAbsolutePath() + "; build it first with"
                    + " ./mvnw -pl liberty-sample -am package (the integration tests run from the reactor do that)");
        }
        httpPort = FreePorts.next();
        ProcessBuilder builder = new ProcessBuilder(script.toString(), "run", serverName());
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
        env.put("SAMPLE_INSTANCE", name());
        env.put("SAMPLE_FEATURES", features);
        env.putAll(environment);
        running(ServerProcess.start(toString(), builder, STARTED, FAILURES, START_TIMEOUT));
    }

    private static String serverName() {
        return System.getProperty("sample.liberty.server", "locksmithSample");
    }

    @Override
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + httpPort);
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
        return outputDir.resolve(serverName()).resolve("logs");
    }

    @Override
    public String describe() {
        StringBuilder text = new StringBuilder("---- ").append(this).append(isAlive() ? ", running" : ", not running")
                .append(", logs in ").append(logs().toAbsolutePath()).append("\n---- console, last 80 lines:\n");
        text.append(consoleTail(80));
        List<String> all = log();
        text.append("---- messages.log, last 120 lines:\n");
        all.subList(Math.max(0, all.size() - 120), all.size()).forEach(line -> text.append(line).append('\n'));
        return text.toString();
    }

    @Override
    public String toString() {
        return "Liberty server " + name() + " (" + features + " features) on " + baseUri();
    }
}
