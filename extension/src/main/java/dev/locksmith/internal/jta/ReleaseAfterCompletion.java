package dev.locksmith.internal.jta;

import dev.locksmith.DistributedLock;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lease.LeaseKeeper;
import dev.locksmith.internal.lock.ReleasableByOwner;
import dev.locksmith.internal.lock.call.UnlockDeferral;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.function.Function;

/**
 * Defers a release to the end of the current JTA transaction when there is one that can still
 * commit; otherwise lets the caller release at once. One instance per {@code LockManager}.
 */
public final class ReleaseAfterCompletion implements UnlockDeferral {
    private static final Logger LOG = System.getLogger(ReleaseAfterCompletion.class.getName());

    private final LeaseKeeper leases;
    private final TransactionRegistryLookup registries;

    private ReleaseAfterCompletion(LeaseKeeper leases, TransactionRegistryLookup registries) {
        this.leases = leases;
        this.registries = registries;
    }

    /**
     * @param leases         the manager's holds, confirmed before commit
     * @param containerBeans finds the one container bean of a type, or null; asked for the registry
     *                       when JNDI has none
     * @return the deferral to set on the manager
     */
    public static ReleaseAfterCompletion create(LeaseKeeper leases, Function<Class<?>, Object> containerBeans) {
        return new ReleaseAfterCompletion(leases, new TransactionRegistryLookup(
                () -> (TransactionSynchronizationRegistry) containerBeans.apply(TransactionSynchronizationRegistry.class)));
    }

    @Override
    public boolean defer(DistributedLock lock) {
        TransactionSynchronizationRegistry registry = registries.find();
        if (registry == null) {
            return false;
        }
        try {
            // Marked rollback-only, timed out or completing: nothing will be committed that the
            // lock must cover, so the lock is released now.
            if (registry.getTransactionStatus() != Status.STATUS_ACTIVE) {
                return false;
            }
            if (!(lock instanceof ReleasableByOwner owned)) {
                LOG.log(Level.WARNING, "Lock '" + lock.getName() + "' (" + lock.getClass().getSimpleName() + ") cannot"
                        + " be released by its owner from another thread, so it is released now instead of after"
                        + " the transaction completes");
                return false;
            }
            Hold hold = owned.currentHold();
            if (hold == null) {
                return false;
            }
            deferredUnlocks(registry).add(owned, hold);
            return true;
        } catch (IllegalStateException e) {
            // The transaction ended between the status check and the registration (a timeout).
            return false;
        }
    }

    @Override
    public void watchUntilCompletion(DistributedLock lock) {
        TransactionSynchronizationRegistry registry = registries.find();
        if (registry == null || !(lock instanceof ReleasableByOwner owned)) {
            return;
        }
        try {
            Hold hold = owned.currentHold();
            if (registry.getTransactionStatus() == Status.STATUS_ACTIVE && hold != null) {
                deferredUnlocks(registry).watch(owned, hold);
            }
        } catch (IllegalStateException e) {
            // The transaction ended between the status check and the registration (a timeout):
            // there is no commit left to protect.
            LOG.log(Level.DEBUG, "Transaction ended before lock '" + lock.getName() + "' could be watched: " + e);
        }
    }

    private DeferredUnlocks deferredUnlocks(TransactionSynchronizationRegistry registry) {
        DeferredUnlocks deferred = (DeferredUnlocks) registry.getResource(this);
        if (deferred == null) {
            deferred = new DeferredUnlocks(leases, registry);
            registry.registerInterposedSynchronization(deferred);
            registry.putResource(this, deferred);
        }
        return deferred;
    }
}
