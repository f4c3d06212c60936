package dev.locksmith.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A PostgreSQL database of the suite's own, created empty for one group of servers and dropped
 * afterwards, and read directly (not through the sample) to check what was really committed.
 * Connects to 127.0.0.1:5432 as postgres unless {@code it.postgres.host}, {@code .port},
 * {@code .user} and {@code .password} say otherwise.
 */
final class SampleDatabase implements AutoCloseable {
    static final String HOST = System.getProperty("it.postgres.host", "127.0.0.1");
    static final String PORT = System.getProperty("it.postgres.port", "5432");
    static final String USER = System.getProperty("it.postgres.user", "postgres");
    static final String PASSWORD = System.getProperty("it.postgres.password", "");

    private final String name;

    private SampleDatabase(String name) {
        this.name = name;
    }

    static SampleDatabase create() {
        String name = "locksmith_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection admin = connect("postgres"); Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create database " + name + " on PostgreSQL at " + HOST + ":" + PORT
                    + " as " + USER + " (is it running? set -Dit.postgres.host/port/user/password otherwise)", e);
        }
        return new SampleDatabase(name);
    }

    String name() {
        return name;
    }

    /**
     * @return the SKU's committed level
     */
    int available(String sku) {
        return queryInt("SELECT available FROM stock WHERE sku = ?", sku);
    }

    /**
     * @return how many reservations of the SKU were committed
     */
    int reservationCount(String sku) {
        return queryInt("SELECT COUNT(*) FROM reservation WHERE sku = ?", sku);
    }

    /**
     * @return how many units of the SKU the committed reservations add up to
     */
    int reservedUnits(String sku) {
        return queryInt("SELECT COALESCE(SUM(quantity), 0) FROM reservation WHERE sku = ?", sku);
    }

    private int queryInt(String sql, String sku) {
        try (Connection connection = connect(name); PreparedStatement query = connection.prepareStatement(sql)) {
            query.setString(1, sku);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    throw new AssertionError("No row for " + sku + " from: " + sql);
                }
                return row.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Querying " + name + " failed: " + sql, e);
        }
    }

    /**
     * Drops the database, cutting off whatever connections a server still has to it.
     */
    @Override
    public void close() {
        try (Connection admin = connect("postgres"); Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (SQLException e) {
            throw new IllegalStateException("Could not drop database " + name, e);
        }
    }

    /**
     * @return a new connection to this database as the suite's user
     */
    Connection connect() throws SQLException {
        return connect(name);
    }

    private static Connection connect(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + HOST + ":" + PORT + "/" + database, USER, PASSWORD);
    }

    @Override
    public String toString() {
        return "PostgreSQL database " + name + " on " + HOST + ":" + PORT;
    }
}
