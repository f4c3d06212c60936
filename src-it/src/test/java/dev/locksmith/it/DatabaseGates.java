package dev.locksmith.it;

import dev.locksmith.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * Ways for a test to stop a reservation at a chosen point, or fail it, from the database alone,
 * so the sample WAR carries no test code. Each works on SKUs with a given prefix:
 * <ul>
 *   <li>{@link #holdRow}: the test locks the SKU's stock row, so a reservation stops at its
 *       {@code UPDATE} inside the locked method, holding the distributed lock, until the test lets go;</li>
 *   <li>{@link #holdCommit}, for SKUs {@value #SLOW_COMMIT}: a deferred constraint trigger makes
 *       the reservation's {@code COMMIT} wait for an advisory lock the test holds, a commit made
 *       slow on purpose;</li>
 *   <li>SKUs {@value #DOOMED}: a trigger refuses the stock update, so the reservation fails after
 *       its work began and its transaction rolls back;</li>
 *   <li>the sample's scheduled job waits at its insert into {@code job_run}, holding its lock,
 *       while the test holds {@code holdCommit(database, JOB_GATE)}.</li>
 * </ul>
 * A stopped reservation shows as a session of the sample waiting on a lock in
 * {@code pg_stat_activity}, which {@link #awaitWaiting} watches.
 */
final class DatabaseGates {
    static final String SLOW_COMMIT = "slow-commit-";
    static final String DOOMED = "doomed-";
    /** The gate the sample's scheduled job waits at, inside its lock: hold it with {@link #holdCommit}. */
    static final String JOB_GATE = SLOW_COMMIT + "job-run";

    private DatabaseGates() {
    }

    /**
     * Creates the sample's tables (as the sample itself would on first use) and the triggers.
     */
    static void install(SampleDatabase database) {
        Path schema = Path.of(System.getProperty("sample.schema",
                "../liberty-sample/src/main/resources/META-INF/stock-schema.sql"));
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            for (String ddl : Files.readString(schema, StandardCharsets.UTF_8).split(";")) {
                if (!ddl.isBlank()) {
                    statement.execute(ddl);
                }
            }
            statement.execute("""
                    CREATE FUNCTION it_commit_gate() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        PERFORM pg_advisory_xact_lock_shared(hashtext(NEW.sku));
                        RETURN NULL;
                    END $$""");
            statement.execute("CREATE CONSTRAINT TRIGGER it_commit_gate AFTER INSERT ON reservation"
                    + " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.sku LIKE '" + SLOW_COMMIT + "%')"
                    + " EXECUTE FUNCTION it_commit_gate()");
            // The scheduled job's insert waits, inside its lock, while the test holds the gate of JOB_GATE.
            statement.execute("CREATE FUNCTION it_job_gate() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " PERFORM pg_advisory_xact_lock_shared(hashtext('" + JOB_GATE + "')); RETURN NULL; END $$");
            statement.execute("CREATE TRIGGER it_job_gate AFTER INSERT ON job_run FOR EACH ROW"
                    + " WHEN (NEW.job = 'sample-job') EXECUTE FUNCTION it_job_gate()");
            statement.execute("""
                    CREATE FUNCTION it_doom() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        RAISE EXCEPTION 'the test database refuses to update %', NEW.sku;
                    END $$""");
            statement.execute("CREATE TRIGGER it_doom BEFORE UPDATE ON stock FOR EACH ROW"
                    + " WHEN (NEW.sku LIKE '" + DOOMED + "%') EXECUTE FUNCTION it_doom()");
        } catch (SQLException e) {
            throw new IllegalStateException("Could not install the test gates in " + database, e);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the sample's schema at " + schema.toAbsolutePath(), e);
        }
    }

    /**
     * Locks the SKU's stock row in a transaction of the test's own, until the gate is closed.
     */
    static Gate holdRow(SampleDatabase database, String sku) {
        return open(database, connection -> {
            connection.setAutoCommit(false);
            try (PreparedStatement lock = connection.prepareStatement("SELECT 1 FROM stock WHERE sku = ? FOR UPDATE")) {
                lock.setString(1, sku);
                try (ResultSet row = lock.executeQuery()) {
                    if (!row.next()) {
                        throw new IllegalStateException("No stock row " + sku + " to hold; restock it first");
                    }
                }
            }
        });
    }

    /**
     * Holds the advisory lock that commits of reservations of {@code sku} wait for; the SKU must
     * start with {@value #SLOW_COMMIT}.
     */
    static Gate holdCommit(SampleDatabase database, String sku) {
        if (!sku.startsWith(SLOW_COMMIT)) {
            throw new IllegalArgumentException(sku + " does not start with " + SLOW_COMMIT);
        }
        return open(database, connection -> {
            try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_lock(hashtext(?))")) {
                lock.setString(1, sku);
                lock.execute();
            }
        });
    }

    /**
     * Waits until {@code count} sessions other than the test's wait on a lock in this database.
     *
     * @throws IllegalStateException if they do not within {@code timeout}
     */
    static void awaitWaiting(SampleDatabase database, int count, Duration timeout) {
        Await.until(count + " session(s) waiting on a gate in " + database, timeout,
                () -> waitingSessions(database) >= count);
    }

    private static int waitingSessions(SampleDatabase database) {
        try (Connection connection = database.connect();
             PreparedStatement query = connection.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                     + " WHERE datname = current_database() AND wait_event_type = 'Lock'");
             ResultSet row = query.executeQuery()) {
            row.next();
            return row.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read pg_stat_activity of " + database, e);
        }
    }

    private static Gate open(SampleDatabase database, SqlStep hold) {
        Connection connection = null;
        try {
            connection = database.connect();
            hold.run(connection);
            return new Gate(connection);
        } catch (SQLException | RuntimeException e) {
            if (connection != null) {
                try {
                    connection.close();
                } catch (SQLException closing) {
                    e.addSuppressed(closing);
                }
            }
            throw new IllegalStateException("Could not close a gate in " + database, e);
        }
    }

    @FunctionalInterface
    private interface SqlStep {
        void run(Connection connection) throws SQLException;
    }

    /**
     * A gate the test holds shut; closing it lets the stopped reservation go on.
     */
    static final class Gate implements AutoCloseable {
        private final Connection connection;

        private Gate(Connection connection) {
            this.connection = connection;
        }

        /**
         * Opens the gate: ends the test's transaction (or its session's advisory lock) without
         * changing anything.
         */
        @Override
        public void close() {
            try {
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                }
                connection.close();
            } catch (SQLException e) {
                throw new IllegalStateException("Could not open the gate", e);
            }
        }
    }
}
