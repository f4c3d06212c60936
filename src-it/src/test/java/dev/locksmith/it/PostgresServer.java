package dev.locksmith.it;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * Where a PostgreSQL answers and how the suite logs in: host, port, a user who may create
 * databases, its password, and the database to connect to while creating and dropping others.
 *
 * @param host          the host name or address the servers under test connect to
 * @param port          its port
 * @param user          a user allowed to {@code CREATE DATABASE} and {@code DROP DATABASE}
 * @param password      its password, empty for none
 * @param adminDatabase the database the suite connects to when it creates or drops one of its own
 */
record PostgresServer(String host, int port, String user, String password, String adminDatabase) {
    private static final String SCHEME = "jdbc:postgresql://";

    /**
     * @param jdbcUrl  such as {@code jdbc:postgresql://db.example:5432/postgres}; the port defaults to
     *                 5432 and the database to {@code postgres}; anything after {@code ?} is ignored
     * @param user     the user
     * @param password its password
     * @return the server that URL names
     * @throws IllegalArgumentException if the URL is not a {@code jdbc:postgresql://host...} URL
     */
    static PostgresServer fromJdbcUrl(String jdbcUrl, String user, String password) {
        if (!jdbcUrl.startsWith(SCHEME)) {
            throw new IllegalArgumentException("it.postgres.url=" + jdbcUrl + " is not a PostgreSQL JDBC URL;"
                    + " write it as jdbc:postgresql://host:port/database");
        }
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("it.postgres.url=" + jdbcUrl + " names no host;"
                    + " write it as jdbc:postgresql://host:port/database");
        }
        String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
        return new PostgresServer(uri.getHost(), uri.getPort() == -1 ? 5432 : uri.getPort(), user, password,
                path.isEmpty() ? "postgres" : path);
    }

    /**
     * @param database a database on this server
     * @return a new connection to it as {@link #user()}
     * @throws SQLException if the server refuses or does not answer
     */
    Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(SCHEME + host + ":" + port + "/" + database, user, password);
    }

    @Override
    public String toString() {
        return "PostgreSQL at " + host + ":" + port + " as " + user;
    }
}
