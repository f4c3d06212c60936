package dev.locksmith.fence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.locksmith.Fence;
import dev.locksmith.FencedWriteRefusedException;
import dev.locksmith.LockLostException;
import dev.locksmith.testing.H2Database;
import dev.locksmith.testing.PostgresServerExtension;
import dev.locksmith.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fence table on real databases, H2 and PostgreSQL: the first use of a name inserts it, a
 * later token passes, the same token passes twice, and an older token is refused with both
 * tokens in the message.
 */
class FenceTest {
    @RegisterExtension
    static final PostgresServerExtension postgres = new PostgresServerExtension();

    private final H2Database h2 = new H2Database();
    private final Fence fence = Fence.table("fence_test");

    @AfterEach
    void dropTheDatabases() {
        h2.close();
        postgres.execute("DROP TABLE IF EXISTS fence_test");
    }

    private TestDatabase database(String title) {
        TestDatabase database = title.equals("H2") ? h2 : postgres;
        try (Connection connection = database.dataSource().getConnection()) {
            fence.createTableIfAbsent(connection);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return database;
    }

    /** Runs one check in a transaction of its own and commits it. */
    private static void checkAndCommit(TestDatabase database, Fence fence, String name, long token) throws SQLException {
        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            try {
                fence.check(connection, name, token);
                connection.commit();
            } catch (RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theFirstUseOfANameInsertsItsToken(String title) throws SQLException {
        TestDatabase database = database(title);

        checkAndCommit(database, fence, "account:1", 5);

        assertThat(database.queryLong("SELECT token FROM fence_test WHERE lock_name = 'account:1'")).isEqualTo(5);
    }

    @ParameterizedTest
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aLaterTokenPassesAndIsStored(String title) throws SQLException {
        TestDatabase database = database(title);
        checkAndCommit(database, fence, "account:2", 5);

        checkAndCommit(database, fence, "account:2", 9);

        assertThat(database.queryLong("SELECT token FROM fence_test WHERE lock_name = 'account:2'")).isEqualTo(9);
    }

    @ParameterizedTest
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void anOlderTokenIsRefusedNamingTheLockBothTokensAndWhatToDo(String title) throws SQLException {
        TestDatabase database = database(title);
        List<FencedWriteRefusedException> told = new CopyOnWriteArrayList<>();
        Fence listened = fence.onRefusal(told::add);
        checkAndCommit(database, listened, "account:3", 6);

        FencedWriteRefusedException refusal = catchThrowableOfType(FencedWriteRefusedException.class,
                () -> checkAndCommit(database, listened, "account:3", 5));

        assertThat(refusal).isInstanceOf(LockLostException.class);
        assertThat(refusal.lockName()).isEqualTo("account:3");
        assertThat(refusal.fencingToken()).isEqualTo(5);
        assertThat(refusal.databaseToken()).isEqualTo(6);
        assertThat(refusal.getMessage()).contains("'account:3'", "token 5", "than 6", "fence_test", "roll it back",
                "retry");
        assertThat(told).containsExactly(refusal);
        assertThat(database.queryLong("SELECT token FROM fence_test WHERE lock_name = 'account:3'")).isEqualTo(6);
    }

    @ParameterizedTest
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theSameTokenPassesTwiceInOneTransactionAndAgainLater(String title) throws SQLException {
        TestDatabase database = database(title);

        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            fence.check(connection, "account:4", 7);
            fence.check(connection, "account:4", 7);
            connection.commit();
        }
        checkAndCommit(database, fence, "account:4", 7);

        assertThat(database.queryLong("SELECT token FROM fence_test WHERE lock_name = 'account:4'")).isEqualTo(7);
    }

    @ParameterizedTest
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void creatingTheTableTwiceKeepsItsRowsAndAMissingTableIsNamedWithItsStatement(String title) throws SQLException {
        TestDatabase database = database(title);
        checkAndCommit(database, fence, "account:5", 1);

        try (Connection connection = database.dataSource().getConnection()) {
            fence.createTableIfAbsent(connection);
            assertThat(fence.tableExists(connection)).isTrue();
            assertThat(Fence.table("no_such_fence").tableExists(connection)).isFalse();
        }
        assertThatThrownBy(() -> checkAndCommit(database, Fence.table("no_such_fence"), "account:5", 2))
                .hasMessageContaining("no_such_fence")
                .hasMessageContaining("CREATE TABLE no_such_fence (lock_name VARCHAR(512) NOT NULL PRIMARY KEY,"
                        + " token BIGINT NOT NULL)");
        assertThat(database.queryLong("SELECT COUNT(*) FROM fence_test")).isEqualTo(1);
    }

    @Test
    void aTableNameThatIsNoPlainIdentifierIsRefusedNamingIt() {
        assertThatThrownBy(() -> Fence.table("fence; DROP TABLE accounts"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'fence; DROP TABLE accounts'").hasMessageContaining("locksmith_fence");
        assertThat(Fence.table("app.locksmith_fence").tableName()).isEqualTo("app.locksmith_fence");
        assertThat(Fence.standard().createTableStatement()).isEqualTo(
                "CREATE TABLE locksmith_fence (lock_name VARCHAR(512) NOT NULL PRIMARY KEY, token BIGINT NOT NULL)");
    }
}
