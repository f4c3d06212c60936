package dev.locksmith.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The one row each cycle of the fenced-writes rows writes: a counter per lock name, in a table of
 * the same shape as the fence table (a name as primary key, a number), so that the application's
 * write and the fence's check cost the database alike.
 */
final class CounterRows {
    static final String TABLE = "counter";
    static final String CREATE_TABLE = "CREATE TABLE " + TABLE
            + " (name VARCHAR(512) NOT NULL PRIMARY KEY, n BIGINT NOT NULL)";
    private static final String INSERT = "INSERT INTO " + TABLE + " (name, n) VALUES (?, 0) ON CONFLICT (name) DO NOTHING";
    private static final String INCREMENT = "UPDATE " + TABLE + " SET n = n + 1 WHERE name = ?";

    private CounterRows() {
    }

    /**
     * Inserts the row of {@code name} unless it is there.
     */
    static void ensure(Connection connection, String name) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, name);
            insert.executeUpdate();
        }
    }

    /**
     * Adds one to the row of {@code name}: the transaction's one write.
     *
     * @throws SQLException          if the database failed the statement
     * @throws IllegalStateException if there is no such row
     */
    static void increment(Connection connection, String name) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(INCREMENT)) {
            update.setString(1, name);
            if (update.executeUpdate() != 1) {
                throw new IllegalStateException("No row '" + name + "' in " + TABLE + " to write");
            }
        }
    }
}
