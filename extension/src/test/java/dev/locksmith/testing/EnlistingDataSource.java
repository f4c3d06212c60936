package dev.locksmith.testing;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.SystemException;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import javax.sql.DataSource;
import javax.sql.XAConnection;
import javax.sql.XADataSource;

/**
 * A data source as a Jakarta EE server binds one: a connection asked for inside a JTA transaction
 * belongs to that transaction (its XA resource is enlisted with the transaction manager, once per
 * transaction, and closed when the transaction completes); outside one, a plain connection in
 * auto-commit mode. As in a server's pool, every connection asked for in one transaction is a
 * handle on the same physical connection, and closing a handle leaves the transaction's work alone.
 */
public final class EnlistingDataSource implements DataSource {
    private final XADataSource xa;
    private final DataSource plain;
    private final TransactionManager transactions;
    private final Map<Transaction, Enlisted> enlisted = new ConcurrentHashMap<>();

    /**
     * @param database     the database's data source, also an XA one, such as H2's {@code JdbcDataSource}
     * @param transactions the transaction manager whose transactions connections join
     * @param <S>          a data source that is both
     */
    public <S extends DataSource & XADataSource> EnlistingDataSource(S database, TransactionManager transactions) {
        this.xa = database;
        this.plain = database;
        this.transactions = transactions;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Transaction transaction;
        try {
            transaction = transactions.getTransaction();
            if (transaction == null || transaction.getStatus() != Status.STATUS_ACTIVE) {
                return plain.getConnection();
            }
        } catch (SystemException e) {
            throw new SQLException("Could not ask the transaction manager for the transaction", e);
        }
        Enlisted connection = enlisted.get(transaction);
        if (connection == null) {
            connection = enlist(transaction);
        }
        Connection handle = connection.handle();
        // H2 rolls back when a handle closes or a second one is taken: keep one open per transaction.
        return (Connection) Proxy.newProxyInstance(EnlistingDataSource.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "close" -> null;
                    case "isClosed" -> false;
                    default -> {
                        try {
                            yield method.invoke(handle, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }
                });
    }

    private Enlisted enlist(Transaction transaction) throws SQLException {
        XAConnection connection = xa.getXAConnection();
        try {
            transaction.enlistResource(connection.getXAResource());
            transaction.registerSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    Enlisted done = enlisted.remove(transaction);
                    try {
                        done.xa().close();
                    } catch (SQLException e) {
                        throw new IllegalStateException("Could not close a connection after its transaction", e);
                    }
                }
            });
        } catch (Exception e) {
            connection.close();
            throw new SQLException("Could not enlist the connection in " + transaction, e);
        }
        Enlisted entry = new Enlisted(connection, connection.getConnection());
        enlisted.put(transaction, entry);
        return entry;
    }

    private record Enlisted(XAConnection xa, Connection handle) {
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the test's data source has one user");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
    }

    @Override
    public void setLoginTimeout(int seconds) {
    }

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return false;
    }
}
