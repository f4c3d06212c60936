package dev.locksmith;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;

/**
 * The table of a {@link Fence}: its name, the statement that creates it, whether it exists, and
 * creating it. The name is a plain SQL identifier, checked by {@link Fence#table(String)}.
 */
final class FenceTable {
    private final String name;

    FenceTable(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    /**
     * @return the portable statement that creates the table
     */
    String createStatement() {
        return "CREATE TABLE " + name + " (lock_name VARCHAR(512) NOT NULL PRIMARY KEY, token BIGINT NOT NULL)";
    }

    /**
     * @see Fence#tableExists(Connection)
     */
    boolean exists(Connection connection) {
        try {
            Savepoint savepoint = connection.getAutoCommit() ? null : connection.setSavepoint();
            try (Statement statement = connection.createStatement()) {
                statement.executeQuery("SELECT token FROM " + name + " WHERE 1 = 0").close();
                return true;
            } catch (SQLException missing) {
                if (savepoint != null) {
                    connection.rollback(savepoint);
                }
                return false;
            } finally {
                if (savepoint != null) {
                    releaseQuietly(connection, savepoint);
                }
            }
        } catch (SQLException e) {
            throw new LockException("Could not ask the database whether the fence table " + name + " exists: " + e, e);
        }
    }

    /**
     * @see Fence#createTableIfAbsent(Connection)
     */
    void createIfAbsent(Connection connection) {
        if (exists(connection)) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            statement.executeUpdate(createStatement());
        } catch (SQLException e) {
            if (exists(connection)) {
                return; // created by another server meanwhile
            }
            throw new LockException("The fence table " + name + " does not exist and could not be created (" + e
                    + "). Create it once as a user who may: " + createStatement(), e);
        }
    }

    private static void releaseQuietly(Connection connection, Savepoint savepoint) {
        try {
            connection.releaseSavepoint(savepoint);
        } catch (SQLException e) {
            // Rolled back to it already, or the driver frees savepoints by itself: nothing is held.
        }
    }
}
