package dev.locksmith.it;

import dev.locksmith.testing.FreePorts;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One instance of the Quarkus sample ({@code quarkus-sample}, JVM mode) as a real process: its
 * {@code quarkus-run.jar}, HTTP on a free loopback port, configured through environment
 * variables like the other runtimes.
 */
final class QuarkusServer extends ProcessServer {
    private static final List<String> STARTED = List.of("started in", "Listening on");
    private static final List<String> FAILURES = List.of("Failed to start application", "Address already in use");
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

    private final Map<String, String> environment;
    private int httpPort;

    private QuarkusServer(String name, Map<String, String> environment) {
        super(name);
        this.environment = Map.copyOf(environment);
    }

    /**
     * @param name        the instance's name, also its {@code sample.instance}
     * @param environment configuration keys as environment variables, and the SAMPLE_DB_* settings
     */
    static QuarkusServer start(String name, Map<String, String> environment) {
        QuarkusServer server = new QuarkusServer(name, environment);
        server.launch();
        return server;
    }

    @Override
    public void restart() {
        launch();
    }

    private void launch() {
        Path jar = RuntimeFiles.file("quarkus.sample.jar");
        httpPort = FreePorts.next();
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:TieredStopAtLevel=1", "-jar", jar.toString());
        builder.environment().put("SAMPLE_INSTANCE", name());
        builder.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
        builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(httpPort));
        builder.environment().putAll(environment);
        running(ServerProcess.start(toString(), builder, STARTED, FAILURES, START_TIMEOUT));
    }

    @Override
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + httpPort);
    }

    @Override
    public String readinessPath() {
        return "/q/health/ready";
    }

    @Override
    public String toString() {
        return "Quarkus " + name() + " on " + baseUri();
    }
}
