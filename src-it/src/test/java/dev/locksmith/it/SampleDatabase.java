package dev.locksmith.it;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;

/**
 * A PostgreSQL database of the suite's own, created empty for one group of servers and dropped
 * afterwards, and read directly (not through the sample) to check what was really committed.
 */
final class SampleDatabase implements AutoCloseable {
    private final PostgresServer server;
    private final String name;

    private SampleDatabase(PostgresServer server, String name) {
        this.server = server;
        this.name = name;
    }

    /**
     * @param server where to create it (see {@link SuitePostgres})
     * @return a new, empty database with a name no other run uses
     * @throws IllegalStateException if the server refused
     */
    static SampleDatabase create(PostgresServer server) {
        String name = "locksmith_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection admin = server.connect(server.adminDatabase()); Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create database " + name + " on " + server, e);
        }
        return new SampleDatabase(server, name);
    }

    /**
     * @return the server it lives on, which the servers under test connect to
     */
    PostgresServer server() {
        return server;
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

    /**
     * @return the committed balances of the bank's accounts, by account
     */
    java.util.SortedMap<String, Long> balances(String bank) {
        java.util.SortedMap<String, Long> balances = new java.util.TreeMap<>();
        try (Connection connection = connect(); PreparedStatement query = connection.prepareStatement(
                "SELECT name, balance FROM bank_account WHERE bank = ?")) {
            query.setString(1, bank);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    balances.put(rows.getString(1), rows.getLong(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Querying " + name + "'s accounts of " + bank + " failed", e);
        }
        return balances;
    }

    /**
     * @param job the job, its lock name: {@code sample-job} (the scheduled job) or {@code sample-task}
     *            (the task on the {@code ManagedScheduledExecutorService})
     * @return the runs of that job of the sample whose slot is in {@code [from, to)}, each as
     *         {@code slot -> instances that ran it}, in slot order
     */
    java.util.SortedMap<String, List<String>> jobRuns(String job, java.time.Instant from, java.time.Instant to) {
        java.util.SortedMap<String, List<String>> runs = new java.util.TreeMap<>();
        try (Connection connection = connect(); PreparedStatement query = connection.prepareStatement(
                "SELECT slot, instance FROM job_run WHERE job = ? AND slot >= ? AND slot < ? ORDER BY slot, ran_at")) {
            query.setString(1, job);
            query.setString(2, from.toString());
            query.setString(3, to.toString());
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    runs.computeIfAbsent(rows.getString(1), slot -> new java.util.ArrayList<>()).add(rows.getString(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Querying " + name + "'s job runs failed", e);
        }
        return runs;
    }

    /**
     * One run of a scheduled job, and how long after its slot it started its work (inside the lock).
     *
     * @param slot     the slot's instant, as the job wrote it
     * @param instance the server that ran it
     * @param late     from the slot to the run's {@code ran_at}: the timer's delay, the server's skew
     *                 and the lock's acquisition
     */
    record JobRun(java.time.Instant slot, String instance, java.time.Duration late) {
    }

    /**
     * @param job the job's lock name
     * @return every run of that job since the database was made, in the order they ran
     */
    List<JobRun> jobRunsInOrder(String job) {
        List<JobRun> runs = new java.util.ArrayList<>();
        try (Connection connection = connect(); PreparedStatement query = connection.prepareStatement(
                "SELECT slot, instance, ran_at FROM job_run WHERE job = ? ORDER BY ran_at")) {
            query.setString(1, job);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    java.time.Instant slot = java.time.Instant.parse(rows.getString(1));
                    runs.add(new JobRun(slot, rows.getString(2),
                            java.time.Duration.between(slot, rows.getTimestamp(3).toInstant())));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Querying " + name + "'s job runs failed", e);
        }
        return runs;
    }

    private int queryInt(String sql, String sku) {
        try (Connection connection = connect(); PreparedStatement query = connection.prepareStatement(sql)) {
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
        try (Connection admin = server.connect(server.adminDatabase()); Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (SQLException e) {
            throw new IllegalStateException("Could not drop database " + name, e);
        }
    }

    /**
     * @return a new connection to this database as the suite's user
     */
    Connection connect() throws SQLException {
        return server.connect(name);
    }

    @Override
    public String toString() {
        return "database " + name + " on " + server;
    }
}
