package dev.locksmith;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The fence check's statements on a JDBC connection, in the connection's transaction.
 */
final class JdbcFenceStatements implements FenceStatements {
    private final Connection connection;

    JdbcFenceStatements(Connection connection) {
        this.connection = connection;
    }

    @Override
    public int update(String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = prepare(sql, parameters)) {
            return statement.executeUpdate();
        }
    }

    @Override
    public Long firstLong(String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = prepare(sql, parameters); ResultSet row = statement.executeQuery()) {
            return row.next() ? row.getLong(1) : null;
        }
    }

    private PreparedStatement prepare(String sql, Object... parameters) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement;
        } catch (SQLException e) {
            statement.close();
            throw e;
        }
    }
}
