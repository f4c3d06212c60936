package dev.locksmith.fence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.Fence;
import dev.locksmith.FencedWriteRefusedException;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.PostgresServerExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Why the fence is safe, shown with two real transactions on two connections to PostgreSQL: a
 * stale holder A (token 5) and the later holder B (token 6) of the same lock, in both orders in
 * which they can reach the database. Neither order loses an update or commits A's stale write
 * over B's.
 */
class FenceOrderingTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String NAME = "account:1";

    @RegisterExtension
    static final PostgresServerExtension postgres = new PostgresServerExtension();

    private final Fence fence = Fence.table("fence_order");
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @BeforeEach
    void anAccountOfOneHundredAndAnEarlierHoldersToken() throws SQLException {
        try (Connection connection = postgres.dataSource().getConnection()) {
            fence.createTableIfAbsent(connection);
        }
        postgres.execute("CREATE TABLE account (id INT PRIMARY KEY, balance INT NOT NULL)",
                "INSERT INTO account VALUES (1, 100)",
                "INSERT INTO fence_order VALUES ('" + NAME + "', 4)");
    }

    @AfterEach
    void dropTheTables() {
        threads.shutdownNow();
        postgres.execute("DROP TABLE account", "DROP TABLE fence_order");
    }

    @Test
    void aStaleHolderThatChecksFirstHoldsTheLaterHolderBackUntilItEndsSoTheLaterOneReadsItsWrite() throws Exception {
        try (Connection stale = transaction(); Connection later = transaction()) {
            fence.check(stale, NAME, 5);
            int staleRead = balance(stale);
            setBalance(stale, staleRead + 10);

            int laterBackend = backendOf(later);
            AtomicInteger laterRead = new AtomicInteger(-1);
            Future<?> laterHolder = threads.submit(() -> {
                fence.check(later, NAME, 6);
                laterRead.set(balance(later));
                setBalance(later, laterRead.get() + 1);
                later.commit();
                return null;
            });
            awaitWaitingForALock(laterBackend);
            assertThat(laterRead).as("the later holder has read nothing yet").hasValue(-1);
            stale.commit();
            laterHolder.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

            assertThat(staleRead).isEqualTo(100);
            assertThat(laterRead).as("the later holder read the stale holder's write").hasValue(110);
        }
        assertThat(postgres.queryLong("SELECT balance FROM account WHERE id = 1")).as("no lost update").isEqualTo(111);
        assertThat(postgres.queryLong("SELECT token FROM fence_order WHERE lock_name = '" + NAME + "'")).isEqualTo(6);
    }

    @Test
    void aLaterHolderThatChecksFirstHasTheStaleHoldersCheckRefusedAndItsWriteNeverCommits() throws Exception {
        try (Connection stale = transaction(); Connection later = transaction()) {
            fence.check(later, NAME, 6);
            setBalance(later, balance(later) + 1);

            int staleBackend = backendOf(stale);
            Future<?> staleHolder = threads.submit(() -> {
                try {
                    fence.check(stale, NAME, 5);
                    setBalance(stale, balance(stale) + 10);
                    stale.commit();
                } catch (FencedWriteRefusedException e) {
                    stale.rollback();
                    throw e;
                }
                return null;
            });
            awaitWaitingForALock(staleBackend);
            later.commit();

            ExecutionException refused = org.assertj.core.api.Assertions.catchThrowableOfType(ExecutionException.class,
                    () -> staleHolder.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
            assertThat(refused.getCause()).isInstanceOf(FencedWriteRefusedException.class)
                    .hasMessageContaining("token 5").hasMessageContaining("than 6");
        }
        assertThat(postgres.queryLong("SELECT balance FROM account WHERE id = 1")).as("only the later write")
                .isEqualTo(101);
        assertThat(postgres.queryLong("SELECT token FROM fence_order WHERE lock_name = '" + NAME + "'")).isEqualTo(6);
    }

    @Test
    void onANamesFirstUseTheLaterHolderWaitsForTheStaleInsertAndFailsWithADuplicateKeyHavingReadNothing()
            throws Exception {
        String firstUse = "account:new";
        try (Connection stale = transaction(); Connection later = transaction()) {
            fence.check(stale, firstUse, 5);
            setBalance(stale, balance(stale) + 10);

            int laterBackend = backendOf(later);
            AtomicInteger laterRead = new AtomicInteger(-1);
            Future<?> laterHolder = threads.submit(() -> {
                try {
                    fence.check(later, firstUse, 6);
                    laterRead.set(balance(later));
                } finally {
                    later.rollback();
                }
                return null;
            });
            awaitWaitingForALock(laterBackend);
            stale.commit();

            ExecutionException failed = org.assertj.core.api.Assertions.catchThrowableOfType(ExecutionException.class,
                    () -> laterHolder.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
            assertThat(failed.getCause()).isInstanceOf(dev.locksmith.LockException.class)
                    .hasMessageContaining("'" + firstUse + "'").hasMessageContaining("duplicate key")
                    .hasMessageContaining("roll back and retry");
            assertThat(laterRead).as("the later holder read nothing").hasValue(-1);
        }
        try (Connection retry = transaction()) {
            fence.check(retry, firstUse, 6);
            retry.commit();
        }
        assertThat(postgres.queryLong("SELECT token FROM fence_order WHERE lock_name = '" + firstUse + "'")).isEqualTo(6);
    }

    private static Connection transaction() throws SQLException {
        Connection connection = postgres.dataSource().getConnection();
        connection.setAutoCommit(false);
        return connection;
    }

    /** Asked before the connection's transaction may block: a connection serves one statement at a time. */
    private static int backendOf(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT pg_backend_pid()");
             ResultSet row = statement.executeQuery()) {
            row.next();
            return row.getInt(1);
        }
    }

    /** PostgreSQL says when a backend waits for another transaction's row lock. */
    private static void awaitWaitingForALock(int backend) {
        Await.until("backend " + backend + " waits for the fence row's lock", DEADLINE, () -> postgres.queryLong(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE pid = " + backend + " AND wait_event_type = 'Lock'") == 1);
    }

    private static int balance(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT balance FROM account WHERE id = 1");
             ResultSet row = select.executeQuery()) {
            row.next();
            return row.getInt(1);
        }
    }

    private static void setBalance(Connection connection, int balance) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("UPDATE account SET balance = ? WHERE id = 1")) {
            update.setInt(1, balance);
            update.executeUpdate();
        }
    }
}
