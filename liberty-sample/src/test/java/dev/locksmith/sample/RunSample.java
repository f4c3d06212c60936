package dev.locksmith.sample;

import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.RedisNode;
import dev.locksmith.testing.RedisServers;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Runs the sample for a newcomer, in the foreground, until Ctrl+C:
 * {@code ./mvnw -pl liberty-sample -am -DskipTests -Prun package}.
 *
 * <p>Uses the Redis at {@code LOCKSMITH_REDIS_URI} (default: the sample's
 * {@code microprofile-config.properties}) if one answers there; otherwise starts one, in Docker
 * through Testcontainers when an engine answers, else the machine's {@code redis-server}, and
 * stops it again with the sample. Then runs the Liberty server that {@code package} prepared.
 */
public final class RunSample {
    private RunSample() {
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(System.getProperty("sample.liberty.home", "liberty-sample/target/liberty/wlp"));
        String serverName = System.getProperty("sample.liberty.server", "locksmithSample");
        Path script = home.resolve("bin/server");
        if (!Files.isExecutable(script)) {
            throw new IllegalStateException("No Liberty server at " + home.toAbsolutePath()
                    + "; run ./mvnw -pl liberty-sample -am -DskipTests -Prun package from the project root");
        }

        String configured = System.getenv().getOrDefault("LOCKSMITH_REDIS_URI", defaultRedisUri());
        ProcessBuilder liberty = new ProcessBuilder(script.toString(), "run", serverName).inheritIO();
        RedisNode startedRedis = null;
        if (answersRedis(configured)) {
            say("Redis answers at " + configured + ": the sample uses it. This launcher did not start it"
                    + " and will not stop it.");
        } else {
            say("No Redis answers at " + configured + "; starting one for the sample ...");
            startedRedis = RedisServers.standalone();
            liberty.environment().put("LOCKSMITH_REDIS_URI", startedRedis.uri());
            say("Started " + (startedRedis instanceof LocalRedisServer ? "the local redis-server binary"
                    : "a Redis container (Testcontainers, Docker)") + " at " + startedRedis.uri()
                    + ". It stops when the sample stops (Ctrl+C); nothing of it is kept.");
        }

        Process server = liberty.start();
        RedisNode redis = startedRedis;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server, redis), "stop-sample"));
        String port = System.getenv().getOrDefault("HTTP_PORT", "9080");
        say("Open Liberty is starting the sample; when it says 'ready to run a smarter planet', try\n"
                + "    curl http://localhost:" + port + "/api/info\n"
                + "  Stop it, and the Redis it started, with Ctrl+C.");
        int exit = server.waitFor();
        if (redis != null) {
            redis.close();
        }
        say("The Liberty server ended with exit code " + exit + ".");
    }

    private static void stop(Process server, RedisNode redis) {
        try {
            if (server.isAlive()) {
                server.destroy(); // SIGTERM: Liberty's orderly shutdown
                if (!server.waitFor(1, TimeUnit.MINUTES)) {
                    server.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            server.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            if (redis != null) {
                redis.close();
                say("Stopped the Redis at " + redis.uri() + ".");
            }
        }
    }

    private static String defaultRedisUri() throws IOException {
        Properties config = new Properties();
        try (InputStream in = RunSample.class.getResourceAsStream("/META-INF/microprofile-config.properties")) {
            if (in != null) {
                config.load(in);
            }
        }
        return config.getProperty("locksmith.redis.uri", "redis://localhost:6379");
    }

    /**
     * @return true when something at the URI's host and port answers a Redis PING, even with an
     *         error such as NOAUTH (a Redis that needs a password still is a Redis)
     */
    private static boolean answersRedis(String uri) {
        URI parsed = URI.create(uri.split(",")[0].trim());
        String host = parsed.getHost() == null ? "localhost" : parsed.getHost();
        int port = parsed.getPort() < 0 ? 6379 : parsed.getPort();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1_000);
            if ("rediss".equals(parsed.getScheme())) {
                return true; // TLS: a plain PING cannot be read; an open port will do
            }
            socket.setSoTimeout(2_000);
            OutputStream out = socket.getOutputStream();
            out.write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            int first = socket.getInputStream().read();
            return first == '+' || first == '-';
        } catch (IOException e) {
            return false;
        }
    }

    private static void say(String message) {
        System.out.println("[RunSample] " + message);
    }
}
