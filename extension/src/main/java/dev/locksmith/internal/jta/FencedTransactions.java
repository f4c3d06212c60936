package dev.locksmith.internal.jta;

import dev.locksmith.DistributedLock;
import dev.locksmith.Fence;
import dev.locksmith.FencedWriteRefusedException;
import dev.locksmith.LockException;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * Checks the fencing token of a {@code @Locked(fenced = true)} call in the caller's JTA
 * transaction, on a connection of the configured data source obtained inside that transaction,
 * so enlisted in it: the fence row it updates stays locked until the transaction ends. Once per
 * lock name and token in a transaction; a refusal marks the transaction rollback-only before it
 * is thrown. Runs on the business thread only.
 */
public final class FencedTransactions {
    private static final Logger LOG = System.getLogger(FencedTransactions.class.getName());

    private final TransactionRegistryLookup registries;
    private final DataSource dataSource;
    private final String dataSourceName;
    private final Fence fence;

    private FencedTransactions(TransactionRegistryLookup registries, DataSource dataSource, String dataSourceName,
                               Fence fence) {
        this.registries = registries;
        this.dataSource = dataSource;
        this.dataSourceName = dataSourceName;
        this.fence = fence;
    }

    /**
     * @param fence          the fence table, telling the manager's observers of each refusal
     * @param dataSource     the application's data source, whose connections join the caller's transaction
     * @param dataSourceName where it came from, for messages
     * @param containerBeans finds the one container bean of a type, or null; asked for the registry
     *                       when JNDI has none
     * @return the checks
     */
    public static FencedTransactions create(Fence fence, DataSource dataSource, String dataSourceName,
                                            Function<Class<?>, Object> containerBeans) {
        return new FencedTransactions(new TransactionRegistryLookup(
                () -> (TransactionSynchronizationRegistry) containerBeans.apply(TransactionSynchronizationRegistry.class)),
                dataSource, dataSourceName, fence);
    }

    /**
     * @param lock  the lock the current thread holds for the call
     * @param where the {@code @Locked} use, for messages
     * @throws FencedWriteRefusedException if a later holder's token is in the fence table; the
     *                                     transaction is rollback-only then
     * @throws LockException               if no transaction is active, or the database failed the check
     *                                     (the transaction is rollback-only then)
     */
    public void check(DistributedLock lock, String where) {
        TransactionSynchronizationRegistry registry = registries.find();
        int status = registry == null ? Status.STATUS_NO_TRANSACTION : registry.getTransactionStatus();
        if (status != Status.STATUS_ACTIVE) {
            throw new LockException(lock.getName(), where + " is fenced, but "
                    + (registry == null ? "no JTA transaction manager was found" : "no JTA transaction is active"
                    + " (status " + status + ")") + " when it is called: the fencing token is checked in the caller's"
                    + " transaction and its writes commit with it. Call it in a transaction: annotate the method or its"
                    + " caller with @Transactional (a session bean has one by default), or remove fenced = true", null);
        }
        long token;
        try {
            token = lock.fencingToken();
        } catch (RuntimeException e) {
            // This process already knows the hold is lost: nothing of this transaction may commit.
            markRollbackOnly(registry);
            throw e;
        }
        CheckedIn key = new CheckedIn(this, lock.getName());
        if (Long.valueOf(token).equals(registry.getResource(key))) {
            return;
        }
        try (Connection connection = dataSource.getConnection()) {
            fence.check(connection, lock.getName(), token);
        } catch (FencedWriteRefusedException e) {
            markRollbackOnly(registry);
            throw e;
        } catch (LockException e) {
            markRollbackOnly(registry);
            throw e;
        } catch (SQLException e) {
            markRollbackOnly(registry);
            throw new LockException(lock.getName(), where + ": could not get a connection from the fencing data source "
                    + dataSourceName + " to check the fencing token: " + e, e);
        }
        registry.putResource(key, token);
    }

    private static void markRollbackOnly(TransactionSynchronizationRegistry registry) {
        try {
            registry.setRollbackOnly();
        } catch (IllegalStateException e) {
            // Already completing: the exception thrown next still fails the call.
            LOG.log(Level.DEBUG, "Could not mark the transaction rollback-only: " + e);
        }
    }

    /**
     * The transaction's note that a lock name's token passed, keyed per checker.
     */
    private record CheckedIn(FencedTransactions checker, String lockName) {
    }
}
