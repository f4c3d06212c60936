package dev.locksmith.benchmarks;

import jakarta.transaction.RollbackException;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;
import javax.sql.DataSource;
import javax.sql.XAConnection;
import org.postgresql.ds.PGSimpleDataSource;
import org.postgresql.xa.PGXADataSource;

/**
 * The application's data source as a Jakarta EE server's pool provides it, over PostgreSQL's XA
 * driver: a connection asked for inside a JTA transaction is the transaction's own (its XA
 * resource enlisted once per transaction, every handle asked for in that transaction on the same
 * physical connection, closing a handle a no-op) and goes back to the pool when the transaction
 * completes; outside a transaction, a new plain connection in auto-commit mode. Physical
 * connections are opened on demand and kept, so after the first transactions of a thread none is
 * opened while cycles are counted.
 *
 * <p>Threads: any business thread asks for connections; the transaction manager's completion,
 * on the committing thread, returns them.
 */
final class EnlistingConnectionPool implements DataSource, AutoCloseable {
    private final PGXADataSource xa = new PGXADataSource();
    private final PGSimpleDataSource plain = new PGSimpleDataSource();
    private final TransactionManager transactions;
    private final ConcurrentLinkedDeque<Pooled> idle = new ConcurrentLinkedDeque<>();
    private final Map<Transaction, Pooled> enlisted = new ConcurrentHashMap<>();
    private final List<Pooled> opened = new CopyOnWriteArrayList<>();

    /**
     * @param url          the database's JDBC URL, with its user
     * @param transactions the transaction manager whose transactions connections join
     */
    EnlistingConnectionPool(String url, TransactionManager transactions) {
        xa.setUrl(url);
        plain.setUrl(url);
        this.transactions = transactions;
    }

    /** One physical connection and the one handle on it that every transaction uses. */
    private record Pooled(XAConnection xa, Connection handle) {
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
        Pooled connection = enlisted.get(transaction);
        return (connection != null ? connection : enlist(transaction)).handle();
    }

    private Pooled enlist(Transaction transaction) throws SQLException {
        Pooled connection = idle.pollFirst();
        if (connection == null) {
            connection = open();
        }
        Pooled taken = connection;
        try {
            transaction.enlistResource(taken.xa().getXAResource());
            transaction.registerSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    enlisted.remove(transaction);
                    idle.addFirst(taken);
                }
            });
        } catch (RollbackException | SystemException | RuntimeException e) {
            idle.addFirst(taken);
            throw new SQLException("Could not enlist a connection in " + transaction, e);
        }
        enlisted.put(transaction, taken);
        return taken;
    }

    private Pooled open() throws SQLException {
        XAConnection physical = xa.getXAConnection();
        // A pooled connection has one open handle at a time, the next one closes it: take one, keep it.
        Connection handle = physical.getConnection();
        Connection kept = (Connection) Proxy.newProxyInstance(EnlistingConnectionPool.class.getClassLoader(),
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
        Pooled pooled = new Pooled(physical, kept);
        opened.add(pooled);
        return pooled;
    }

    /**
     * Closes every physical connection.
     */
    @Override
    public void close() {
        for (Pooled pooled : opened) {
            try {
                pooled.xa().close();
            } catch (SQLException e) {
                // The worker exits next; the server drops the connection then.
            }
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the benchmark's data source has one user");
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
    public <T> T unwrap(Class<T> type) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return false;
    }
}
