package dev.locksmith.it;

import dev.locksmith.testing.FreePorts;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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

    /**
     * Runs an instance that must not start, until its process ends.
     *
     * @param name             the instance's name, also its {@code sample.instance}
     * @param environment      configuration keys as environment variables, and the SAMPLE_DB_* settings
     * @param systemProperties further configuration as {@code -Dkey=value} options of its JVM
     * @return how it ended, and its console
     * @throws IllegalStateException if it still ran after the start timeout
     */
    static ServerProcess.Ended runToEnd(String name, Map<String, String> environment, Map<String, String> systemProperties) {
        QuarkusServer server = new QuarkusServer(name, environment);
        server.httpPort = FreePorts.next();
        return ServerProcess.runToEnd(server.toString(), server.command(systemProperties), START_TIMEOUT);
    }

    private void launch() {
        httpPort = FreePorts.next();
        running(ServerProcess.start(toString(), command(Map.of()), STARTED, FAILURES, START_TIMEOUT));
    }

    private ProcessBuilder command(Map<String, String> systemProperties) {
        Path jar = RuntimeFiles.file("quarkus.sample.jar");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:TieredStopAtLevel=1"));
        systemProperties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("SAMPLE_INSTANCE", name());
        builder.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
        builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(httpPort));
        builder.environment().putAll(environment);
        return builder;
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
