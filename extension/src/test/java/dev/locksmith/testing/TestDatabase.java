package dev.locksmith.testing;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * A real database for tests of fenced writes: H2 in this JVM ({@link H2Database}) or a PostgreSQL
 * server of the test's own ({@link PostgresServerExtension}).
 */
public interface TestDatabase {

    /**
     * @return a data source whose connections start in auto-commit mode
     */
    DataSource dataSource();

    /**
     * @return a short name for test names, such as {@code H2}
     */
    String title();

    /**
     * Runs statements in auto-commit mode, such as the set-up and the clean-up of a test's tables.
     *
     * @param statements SQL statements, run in order
     */
    default void execute(String... statements) {
        try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not run " + String.join("; ", statements) + " on " + title(), e);
        }
    }

    /**
     * @param query a query that returns one number
     * @return that number, read in auto-commit mode
     */
    default long queryLong(String query) {
        try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement();
             var row = statement.executeQuery(query)) {
            if (!row.next()) {
                throw new IllegalStateException(query + " returned no row on " + title());
            }
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not run " + query + " on " + title(), e);
        }
    }
}
