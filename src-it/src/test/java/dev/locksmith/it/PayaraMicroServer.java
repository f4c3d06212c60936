package dev.locksmith.it;

import dev.locksmith.testing.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One Payara Micro instance running the sample WAR as a real process: its own root directory, a
 * free loopback port, no clustering and no Hazelcast, the PostgreSQL driver added to the server and the data
 * source {@code jdbc/stock} created by post-boot commands (see {@code docs/payara.md}).
 */
final class PayaraMicroServer extends ProcessServer {
    private static final List<String> STARTED = List.of("Payara Micro", "ready in");
    private static final List<String> FAILURES = List.of("Exception while preparing the app",
            "Exception during lifecycle processing", "Failed to deploy", "Address already in use");
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);

    private final Path rootDir;
    private final Map<String, String> environment;
    private final String jarProperty;
    private final Path javaHome;
    private int httpPort;

    private PayaraMicroServer(String name, Path rootDir, Map<String, String> environment, String jarProperty,
            Path javaHome) {
        super(name);
        this.rootDir = rootDir;
        this.environment = Map.copyOf(environment);
        this.jarProperty = jarProperty;
        this.javaHome = javaHome;
    }

    /**
     * @param name        the instance's name, also its {@code sample.instance}
     * @param workDir     where its root directory goes
     * @param environment MicroProfile Config keys as environment variables, and the SAMPLE_DB_* settings
     * @param jarProperty the system property naming the Payara Micro jar, such as {@code payara.micro.jar}
     * @param javaHome    the JDK that runs it
     */
    static PayaraMicroServer start(String name, Path workDir, Map<String, String> environment, String jarProperty,
            Path javaHome) {
        PayaraMicroServer server = new PayaraMicroServer(name, workDir.resolve(name), environment, jarProperty, javaHome);
        server.launch();
        return server;
    }

    @Override
    public void restart() {
        launch();
    }

    private void launch() {
        Path jar = RuntimeFiles.file(jarProperty);
        httpPort = FreePorts.next();
        List<String> command = new ArrayList<>(List.of(javaHome.resolve("bin/java").toString(),
                "-Xmx512m", "-XX:TieredStopAtLevel=1", "-jar", jar.toString(),
                "--nocluster", "--nohazelcast", "--port", Integer.toString(httpPort),
                "--addLibs", RuntimeFiles.file("postgresql.jar").toString(),
                "--prebootcommandfile", preBootCommands().toString(),
                "--postbootcommandfile", postBootCommands().toString(),
                "--rootdir", rootDir.resolve("root").toString(),
                "--deploy", RuntimeFiles.file("sample.war").toString(), "--contextroot", "/"));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("SAMPLE_INSTANCE", name());
        builder.environment().putAll(environment);
        running(ServerProcess.start(toString(), builder, STARTED, FAILURES, START_TIMEOUT));
    }

    /**
     * The asadmin command Payara Micro runs before boot: HTTP on loopback only. Set after boot, the
     * listener starts on every interface and is then restarted, which sometimes left it closed.
     */
    private Path preBootCommands() {
        return commandFile("pre-boot-commands.txt",
                "set configs.config.server-config.network-config.network-listeners.network-listener.http-listener.address=127.0.0.1\n");
    }

    /**
     * The asadmin commands Payara Micro runs after boot: the data source.
     */
    private Path postBootCommands() {
        String password = environment.getOrDefault("SAMPLE_DB_PASSWORD", "");
        // The pool refuses to connect without a password credential; under trust authentication any will do.
        String credential = password.isEmpty() ? "unused" : password;
        String commands = String.join("\n",
                "create-jdbc-connection-pool --datasourceclassname org.postgresql.ds.PGSimpleDataSource"
                        + " --restype javax.sql.DataSource --property user=" + environment.get("SAMPLE_DB_USER")
                        + ":password=" + credential + ":serverName=" + environment.get("SAMPLE_DB_HOST")
                        + ":portNumber=" + environment.get("SAMPLE_DB_PORT") + ":databaseName="
                        + environment.get("SAMPLE_DB_NAME") + " stockPool",
                "create-jdbc-resource --connectionpoolid stockPool jdbc/stock", "");
        return commandFile("post-boot-commands.txt", commands);
    }

    private Path commandFile(String fileName, String commands) {
        try {
            Files.createDirectories(rootDir);
            return Files.writeString(rootDir.resolve(fileName), commands);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write the " + fileName + " of " + name(), e);
        }
    }

    @Override
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + httpPort);
    }

    @Override
    public String toString() {
        return "Payara Micro " + name() + " on " + baseUri();
    }
}
