package dev.locksmith;

import java.sql.SQLException;

/**
 * Runs the fence check's statements in the caller's transaction: on its JDBC connection or
 * through its {@code EntityManager}. The statements themselves are {@link Fence}'s; this only
 * carries them to the database.
 */
interface FenceStatements {

    /**
     * @param sql        an {@code UPDATE} or {@code INSERT} with {@code ?} for each parameter
     * @param parameters the values, in order: strings and longs
     * @return how many rows it changed
     * @throws SQLException if the database refused it
     */
    int update(String sql, Object... parameters) throws SQLException;

    /**
     * @param sql        a {@code SELECT} of one number, with {@code ?} for each parameter
     * @param parameters the values, in order
     * @return the first row's number, or null when there is no row
     * @throws SQLException if the database refused it
     */
    Long firstLong(String sql, Object... parameters) throws SQLException;
}
