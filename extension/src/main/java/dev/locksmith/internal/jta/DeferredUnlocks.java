package dev.locksmith.internal.jta;

import dev.locksmith.LockException;
import dev.locksmith.LockLostException;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lease.LeaseKeeper;
import dev.locksmith.internal.lock.ReleasableByOwner;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The holds one transaction depends on, registered once per transaction as an interposed
 * synchronization. Before commit it confirms and extends every hold in one round trip and marks
 * the transaction rollback-only if one was lost; after commit or rollback it releases every hold
 * as often as its release was deferred here (a watched hold owes none), by the owner recorded
 * in the hold, and never throws.
 */
final class DeferredUnlocks implements Synchronization {
    private static final Logger LOG = System.getLogger(DeferredUnlocks.class.getName());

    private final LeaseKeeper leases;
    private final TransactionSynchronizationRegistry registry;
    private final Map<Hold, Owed> owed = new IdentityHashMap<>();

    /**
     * @param leases   the holds' keeper
     * @param registry the registry, looked up on the business thread; used in beforeCompletion only
     */
    DeferredUnlocks(LeaseKeeper leases, TransactionSynchronizationRegistry registry) {
        this.leases = leases;
        this.registry = registry;
    }

    /**
     * @param lock the lock
     * @param hold the current thread's hold of it, which now owes one more release
     */
    synchronized void add(ReleasableByOwner lock, Hold hold) {
        owed.computeIfAbsent(hold, key -> new Owed(lock)).releases++;
    }

    /**
     * @param lock the lock
     * @param hold a hold to confirm before commit; whoever took it releases it, not this transaction
     */
    synchronized void watch(ReleasableByOwner lock, Hold hold) {
        owed.computeIfAbsent(hold, key -> new Owed(lock));
    }

    @Override
    public void beforeCompletion() {
        List<Hold> holds;
        synchronized (this) {
            holds = List.copyOf(owed.keySet());
        }
        List<Hold> lost;
        try {
            lost = leases.confirmAndExtend(holds);
        } catch (RuntimeException e) {
            markRollbackOnly();
            throw new LockException("Could not confirm lock(s) " + names(holds) + " before commit, so the transaction"
                    + " is rolled back: " + e.getMessage(), e);
        }
        if (!lost.isEmpty()) {
            markRollbackOnly();
            throw new LockLostException(lost.size() == 1 ? lost.get(0).name() : null, "Lock(s) " + lost.stream().map(hold -> "'" + hold.name() + "' (fencing token "
                    + hold.fencingToken() + ")").collect(Collectors.joining(", ")) + " lost before the transaction"
                    + " committed: the lease expired or the lock was force-unlocked, so another holder may have"
                    + " entered. The transaction is rolled back.");
        }
    }

    @Override
    public void afterCompletion(int status) {
        List<Map.Entry<Hold, Owed>> entries;
        synchronized (this) {
            entries = new ArrayList<>(owed.entrySet());
            owed.clear();
        }
        for (Map.Entry<Hold, Owed> entry : entries) {
            release(entry.getKey(), entry.getValue(), status);
        }
    }

    private void markRollbackOnly() {
        try {
            registry.setRollbackOnly();
        } catch (IllegalStateException e) {
            // Already completing: the exception thrown next still fails the commit.
            LOG.log(Level.DEBUG, "Could not mark the transaction rollback-only: " + e);
        }
    }

    private static void release(Hold hold, Owed owed, int status) {
        String outcome = status == Status.STATUS_COMMITTED ? "committed" : "rolled back";
        for (int i = 0; i < owed.releases; i++) {
            boolean last = hold.count() <= 1;
            try {
                owed.lock.release(hold);
            } catch (LockLostException e) {
                // Nothing of ours is left to release: the lock is free or someone else's by now.
                if (status == Status.STATUS_COMMITTED) {
                    LOG.log(Level.WARNING, "Lock '" + hold.name() + "' was lost after it was confirmed before the"
                            + " commit and before its release: " + e.getMessage());
                } else {
                    LOG.log(Level.INFO, "Lock '" + hold.name() + "' was lost before the transaction rolled back;"
                            + " nothing of the transaction was committed, and nothing is left to release");
                }
                return;
            } catch (RuntimeException e) {
                // afterCompletion must not throw: the outcome is decided, and a server may log and
                // swallow or mis-handle the exception. A failed count-down still counted, so the
                // releases owed after it go on and the last one ends the hold.
                LOG.log(Level.WARNING, "Could not release lock '" + hold.name() + "' after the transaction " + outcome
                        + (last ? "; it is no longer renewed and frees itself when its lease runs out, within "
                                + hold.leaseMillis() + " ms: "
                                : "; the release still counted, and the hold ends with the release that"
                                        + " ends it: ") + e.getMessage(), e);
                if (last) {
                    return;
                }
            }
        }
    }

    private static String names(List<Hold> holds) {
        return holds.stream().map(hold -> "'" + hold.name() + "'").collect(Collectors.joining(", "));
    }

    private static final class Owed {
        private final ReleasableByOwner lock;
        private int releases;

        private Owed(ReleasableByOwner lock) {
            this.lock = lock;
        }
    }
}
