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
 * Ways for a test to stop a reservation or a transfer at a chosen point, or fail it, from the
 * database alone, so the sample WAR carries no test code. Each works on SKUs (banks) with a given
 * prefix:
 * <ul>
 *   <li>{@link #holdRow}: the test locks the SKU's stock row, so a reservation stops at its
 *       {@code UPDATE} inside the locked method, holding the distributed lock, until the test lets go;
 *       {@link #holdAccount} the same for an account of the bank;</li>
 *   <li>{@link #holdCommit}, for SKUs and banks {@value #SLOW_COMMIT}: a deferred constraint trigger
 *       makes the reservation's (transfer's) {@code COMMIT} wait for an advisory lock the test holds, a
 *       commit made slow on purpose, after Locksmith's check before commit;</li>
 *   <li>{@link #holdFirstUpdate}: the first {@code UPDATE} statement on a table after the test closed
 *       the gate waits, before it touches a row, while every later one passes: the first
 *       transaction is stopped before its write (or before its fencing check, on the fence table)
 *       and the next overtakes it;</li>
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
            statement.execute("""
                    CREATE FUNCTION it_bank_commit_gate() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        PERFORM pg_advisory_xact_lock_shared(hashtext(NEW.bank));
                        RETURN NULL;
                    END $$""");
            statement.execute("CREATE CONSTRAINT TRIGGER it_bank_commit_gate AFTER UPDATE ON bank_account"
                    + " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.bank LIKE '" + SLOW_COMMIT + "%')"
                    + " EXECUTE FUNCTION it_bank_commit_gate()");
            // holdFirstUpdate: the first transaction to claim a closed gate waits at it; the claim
            // is its own until it ends, so every other transaction passes meanwhile.
            statement.execute("CREATE TABLE it_first_update_gate (table_name VARCHAR(64) PRIMARY KEY)");
            statement.execute("""
                    CREATE FUNCTION it_first_update_waits() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        IF EXISTS (SELECT 1 FROM it_first_update_gate WHERE table_name = TG_TABLE_NAME) THEN
                            IF pg_try_advisory_xact_lock(hashtext('it-first-update:' || TG_TABLE_NAME)) THEN
                                PERFORM pg_advisory_xact_lock_shared(hashtext('it-first-update-gate:' || TG_TABLE_NAME));
                            END IF;
                        END IF;
                        RETURN NULL;
                    END $$""");
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
     * Locks an account's row in a transaction of the test's own, until the gate is closed: a
     * transfer stops at its write of that account, holding the bank's lock.
     */
    static Gate holdAccount(SampleDatabase database, String bank, String account) {
        return open(database, connection -> {
            connection.setAutoCommit(false);
            try (PreparedStatement lock = connection.prepareStatement(
                    "SELECT 1 FROM bank_account WHERE bank = ? AND name = ? FOR UPDATE")) {
                lock.setString(1, bank);
                lock.setString(2, account);
                try (ResultSet row = lock.executeQuery()) {
                    if (!row.next()) {
                        throw new IllegalStateException("No account " + account + " of " + bank + " to hold; open it first");
                    }
                }
            }
        });
    }

    /**
     * Closes a gate at the first {@code UPDATE} statement on {@code table} from now on: that
     * statement waits, before it touches a row, until the gate is opened; every {@code UPDATE}
     * of another transaction meanwhile passes. A statement-level trigger does it, so the waiting
     * transaction has locked no row of the table.
     *
     * @param table a table of the sample, or Locksmith's fence table {@code locksmith_fence}
     */
    static Gate holdFirstUpdate(SampleDatabase database, String table) {
        Gate gate = open(database, connection -> {
            try (Statement statement = connection.createStatement()) {
                // The fence table is Locksmith's: it exists only once a server has started.
                statement.execute("CREATE OR REPLACE TRIGGER it_first_update_waits BEFORE UPDATE ON " + table
                        + " FOR EACH STATEMENT EXECUTE FUNCTION it_first_update_waits()");
            }
            try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_lock(hashtext(?))")) {
                lock.setString(1, "it-first-update-gate:" + table);
                lock.execute();
            }
            try (PreparedStatement arm = connection.prepareStatement("INSERT INTO it_first_update_gate VALUES (?)")) {
                arm.setString(1, table);
                arm.execute();
            }
        });
        // Disarmed before it opens: the waiting statement goes on, and no later one stops.
        return gate.beforeOpening(connection -> {
            try (PreparedStatement disarm = connection.prepareStatement(
                    "DELETE FROM it_first_update_gate WHERE table_name = ?")) {
                disarm.setString(1, table);
                disarm.execute();
            }
        });
    }

    /**
     * Holds the advisory lock that commits of reservations of {@code sku}, or of transfers in the
     * bank {@code sku}, wait for; the name must start with {@value #SLOW_COMMIT}.
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
            return new Gate(connection, ignored -> {
            });
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
        private final SqlStep beforeOpening;

        private Gate(Connection connection, SqlStep beforeOpening) {
            this.connection = connection;
            this.beforeOpening = beforeOpening;
        }

        private Gate beforeOpening(SqlStep step) {
            return new Gate(connection, step);
        }

        /**
         * Opens the gate: ends the test's transaction (or its session's advisory lock) without
         * changing anything. Opening an open gate does nothing.
         */
        @Override
        public void close() {
            try {
                if (connection.isClosed()) {
                    return;
                }
                beforeOpening.run(connection);
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
