package dev.locksmith.internal.cdi;

import dev.locksmith.DistributedLock;
import dev.locksmith.Fence;
import dev.locksmith.LockException;
import dev.locksmith.internal.classpath.OptionalApi;
import dev.locksmith.internal.jta.FencedTransactions;
import javax.sql.DataSource;

/**
 * What {@code @Locked(fenced = true)} needs: the fencing data source and table, resolved and
 * checked once (when the deployment is validated, or on the first fenced call where the container
 * offers no earlier moment), and the check each fenced call makes in its transaction
 * ({@link FencedTransactions}, reached only when fenced uses exist, which needs Jakarta
 * Transactions).
 */
final class FencedCalls {
    private final LockManagerLifecycle lifecycle;
    private volatile FencingSettings settings;
    private volatile DataSource prepared;
    private volatile FencedTransactions transactions;

    /**
     * @param lifecycle the {@code LockManager} bean's life cycle: its beans and its manager
     */
    FencedCalls(LockManagerLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    /**
     * @param settings the settings checked at deployment
     */
    void configure(FencingSettings settings) {
        this.settings = settings;
    }

    /**
     * Finds the data source and makes sure the fence table is there.
     *
     * @param uses the fenced uses, for messages
     * @return the data source
     * @throws IllegalArgumentException naming the key, the value and the fix
     */
    DataSource prepare(String uses) {
        FencingSettings fencing = settings;
        DataSource dataSource = FencingDataSource.find(fencing, lifecycle.beans(), uses);
        FencingDataSource.prepareTable(fencing, dataSource, uses);
        prepared = dataSource;
        return dataSource;
    }

    /**
     * @param lock      the lock the current thread holds for the call
     * @param operation the call's use, which is fenced
     * @throws dev.locksmith.FencedWriteRefusedException if a later holder's token is in the fence table
     * @throws LockException                             if there is no transaction, the data source or
     *                                                   table is missing, or the database failed
     */
    void check(DistributedLock lock, LockedOperation operation) {
        transactions(operation).check(lock, operation.where());
    }

    private FencedTransactions transactions(LockedOperation operation) {
        FencedTransactions known = transactions;
        if (known != null) {
            return known;
        }
        if (!OptionalApi.JTA.isPresent()) {
            throw new LockException(operation.where() + ": fenced = true needs Jakarta Transactions, which this"
                    + " application does not have. Remove fenced = true, or check tokens with dev.locksmith.Fence");
        }
        synchronized (this) {
            if (transactions == null) {
                DataSource dataSource = prepared;
                try {
                    dataSource = dataSource != null ? dataSource : prepare(operation.where());
                } catch (IllegalArgumentException e) {
                    throw new LockException(e.getMessage(), e);
                }
                Fence fence = lifecycle.manager().fence(settings.fence().tableName());
                transactions = FencedTransactions.create(fence, dataSource,
                        ConfigKey.FENCING_DATA_SOURCE.key() + " = '" + settings.dataSource() + "'",
                        type -> ContainerBeans.find(lifecycle.beans(), type));
            }
            return transactions;
        }
    }
}
