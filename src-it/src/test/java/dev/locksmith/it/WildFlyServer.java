package dev.locksmith.it;

import dev.locksmith.testing.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * One WildFly server running the sample WAR as a real process: the distribution the build
 * unpacked, with a base directory of its own (a copy of {@code standalone/}), the default
 * {@code standalone.xml} configuration bound to loopback, optionally with MicroProfile Health
 * added by {@code jboss-cli} as a user adds it, every port moved by one free offset, and three
 * deployments: the PostgreSQL driver, the data source {@code java:/jdbc/stock}
 * ({@code stock-ds.xml}) and the sample as {@code ROOT.war} (see {@code docs/wildfly.md}).
 */
final class WildFlyServer extends ProcessServer {
    private static final List<String> STARTED = List.of("WFLYSRV0025");
    // started with errors, a management operation (such as a deployment) failed
    private static final List<String> FAILURES = List.of("WFLYSRV0026", "WFLYCTL0013");
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);
    /** The ports of standalone.xml that the offset moves: http, https, management http and https, transactions. */
    private static final int[] PORTS = {8080, 8443, 9990, 9993, 4712, 4713, 8009};
    /** The commands docs/wildfly.md gives, run on the server's own copy of standalone.xml. */
    private static final List<String> ADD_MICROPROFILE_HEALTH = List.of(
            "embed-server --server-config=standalone.xml --std-out=discard",
            "/extension=org.wildfly.extension.microprofile.health-smallrye:add",
            "/subsystem=microprofile-health-smallrye:add(security-enabled=false)",
            "stop-embedded-server");
    private static final Duration CLI_TIMEOUT = Duration.ofMinutes(2);

    private final Path baseDir;
    private final Map<String, String> environment;
    private final String homeProperty;
    private final Path javaHome;
    private int offset;

    private WildFlyServer(String name, Path baseDir, Map<String, String> environment, String homeProperty,
            Path javaHome) {
        super(name);
        this.baseDir = baseDir;
        this.environment = Map.copyOf(environment);
        this.homeProperty = homeProperty;
        this.javaHome = javaHome;
    }

    /**
     * @param name               the server's name, also its {@code sample.instance}
     * @param workDir            where its base directory goes
     * @param environment        MicroProfile Config keys as environment variables, and the SAMPLE_DB_* settings
     * @param microProfileHealth whether to add the {@code microprofile-health-smallrye} subsystem to standalone.xml
     * @param homeProperty       the system property naming the unpacked distribution, such as {@code wildfly.home}
     * @param javaHome           the JDK that runs it and its {@code jboss-cli}
     */
    static WildFlyServer start(String name, Path workDir, Map<String, String> environment, boolean microProfileHealth,
            String homeProperty, Path javaHome) {
        WildFlyServer server = new WildFlyServer(name, workDir.resolve(name), environment, homeProperty, javaHome);
        server.prepare(microProfileHealth);
        server.launch();
        return server;
    }

    private void prepare(boolean microProfileHealth) {
        Path home = RuntimeFiles.file(homeProperty);
        try {
            copyTree(home.resolve("standalone"), baseDir);
            if (microProfileHealth) {
                configure(home, ADD_MICROPROFILE_HEALTH);
            }
            Path deployments = baseDir.resolve("deployments");
            Files.copy(RuntimeFiles.file("postgresql.jar"), deployments.resolve("postgresql.jar"));
            Files.writeString(deployments.resolve("stock-ds.xml"), dataSource());
            Files.copy(RuntimeFiles.file("sample.war"), deployments.resolve("ROOT.war"));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not prepare " + baseDir, e);
        }
    }

    /**
     * Runs {@code jboss-cli} on an embedded, offline server whose base directory is this server's,
     * so only this server's standalone.xml changes.
     */
    private void configure(Path home, List<String> commands) throws IOException {
        Path output = baseDir.resolve("jboss-cli.out");
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/jboss-cli.sh").toString(),
                "--commands=" + String.join(",", commands))
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("JAVA_HOME", javaHome.toString());
        builder.environment().put("JAVA_OPTS", "-Djboss.server.base.dir=" + baseDir.toAbsolutePath());
        Process cli = builder.start();
        try {
            if (!cli.waitFor(CLI_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                cli.descendants().forEach(ProcessHandle::destroyForcibly);
                cli.destroyForcibly();
                throw new IllegalStateException("jboss-cli did not finish within " + CLI_TIMEOUT + " for " + this
                        + ":\n" + Files.readString(output));
            }
        } catch (InterruptedException e) {
            cli.descendants().forEach(ProcessHandle::destroyForcibly);
            cli.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while configuring " + this, e);
        }
        String said = Files.readString(output);
        if (cli.exitValue() != 0 || said.contains("\"outcome\" => \"failed\"")) {
            throw new IllegalStateException("jboss-cli failed (exit " + cli.exitValue() + ") on " + commands + " for "
                    + this + ":\n" + said);
        }
    }

    /**
     * The data source deployment. In the 7.0 schema of a {@code -ds.xml} the user and password are
     * elements: as attributes they are ignored, and the driver logs in as the OS user.
     */
    private String dataSource() {
        String password = environment.getOrDefault("SAMPLE_DB_PASSWORD", "");
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <datasources xmlns="urn:jboss:domain:datasources:7.0">
                    <datasource jndi-name="java:/jdbc/stock" pool-name="stock">
                        <connection-url>jdbc:postgresql://%s:%s/%s</connection-url>
                        <driver>postgresql.jar</driver>
                        <security>
                            <user-name>%s</user-name>
                            %s
                        </security>
                    </datasource>
                </datasources>
                """.formatted(environment.get("SAMPLE_DB_HOST"), environment.get("SAMPLE_DB_PORT"),
                environment.get("SAMPLE_DB_NAME"), environment.get("SAMPLE_DB_USER"),
                password.isEmpty() ? "" : "<password>" + password + "</password>");
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    @Override
    public void restart() {
        launch();
    }

    private void launch() {
        Path home = RuntimeFiles.file(homeProperty);
        offset = freeOffset();
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/standalone.sh").toString(),
                "-c", "standalone.xml", "-b", "127.0.0.1", "-bmanagement", "127.0.0.1",
                "-Djboss.server.base.dir=" + baseDir.toAbsolutePath(),
                "-Djboss.socket.binding.port-offset=" + offset);
        Map<String, String> env = builder.environment();
        env.put("JAVA_HOME", javaHome.toString());
        env.put("JAVA_OPTS", "-Xmx512m -XX:TieredStopAtLevel=1 -Djava.net.preferIPv4Stack=true");
        env.put("SAMPLE_INSTANCE", name());
        env.putAll(environment);
        running(ServerProcess.start(toString(), builder, STARTED, FAILURES, START_TIMEOUT));
    }

    /**
     * @return an offset that puts every port of standalone.xml on a free port
     */
    private static int freeOffset() {
        for (int attempt = 0; attempt < 100; attempt++) {
            // Every port stays below the kernel's range for outgoing connections (32768 and up).
            int candidate = ThreadLocalRandom.current().nextInt(8_000, 22_000);
            if (IntStream.of(PORTS).allMatch(port -> FreePorts.isFree(port + candidate))) {
                return candidate;
            }
        }
        throw new IllegalStateException("No port offset with all of WildFly's ports free");
    }

    @Override
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + (8080 + offset));
    }

    /**
     * @return the management interface: WildFly answers {@code /health} there, not on the application's port
     */
    @Override
    public URI healthUri() {
        return URI.create("http://127.0.0.1:" + (9990 + offset));
    }

    @Override
    public String describe() {
        return super.describe() + "---- full logs in " + baseDir.resolve("log").toAbsolutePath() + "\n";
    }

    @Override
    public String toString() {
        return "WildFly " + name() + " on " + baseUri();
    }
}
