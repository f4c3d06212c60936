package dev.locksmith.internal.lock;

import dev.locksmith.LockException;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lease.HoldCalls;
import dev.locksmith.internal.redis.ScriptCall;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * Turns a grant from Redis into a hold of this process: the replicas asked for confirm it, the
 * lease keeper takes it (unless the manager closed meanwhile), and otherwise it is dropped again,
 * without waiting, on the connection that sent the attempt. One instance serves one acquisition.
 */
final class HoldGrant {
    private static final Logger LOG = System.getLogger(HoldGrant.class.getName());

    private final LockTarget lock;
    private final LockContext context;
    private final String owner;
    private final long lease;
    private final boolean watchdog;

    /**
     * @param lease    the lease in ms
     * @param watchdog whether the lease keeper renews the lease
     */
    HoldGrant(LockTarget lock, String owner, long lease, boolean watchdog) {
        this.lock = lock;
        this.context = lock.context();
        this.owner = owner;
        this.lease = lease;
        this.watchdog = watchdog;
    }

    /**
     * Records a hold Redis granted, once the replicas asked for have it.
     *
     * @param since where its lease counts from, on the lease keeper's clock
     * @return the hold, now the lease keeper's
     * @throws LockException         if the replicas did not confirm it; it is released again
     * @throws IllegalStateException if the manager closed meanwhile; it is released again
     */
    Hold record(long fencingToken, long since) {
        Hold hold = new Hold(lock.name(), lock.description(), lock.keys().holdKeys(), owner, lock.kind().holdField(owner),
                lock.kind().expiryField(owner), fencingToken, lease, watchdog, since);
        awaitReplicas(hold);
        hold.observe(context.observer().holdStarted(lock.label(), fencingToken));
        if (!context.leases().granted(hold)) {
            dropNow();
            hold.observeEnd();
            context.state().checkOpen();
            throw new IllegalStateException("The " + lock.description() + " was granted while its manager closed");
        }
        return hold;
    }

    private void awaitReplicas(Hold hold) {
        int wanted = context.settings().syncReplicas();
        if (wanted == 0) {
            return;
        }
        long timeout = context.settings().syncTimeout().toMillis();
        long acknowledged;
        try {
            acknowledged = context.replies().await(context.store().awaitReplicas(lock.keys().lock(), wanted, timeout),
                    "Waiting for replicas to copy ", lock.description());
        } catch (LockException e) {
            dropNow();
            throw e;
        }
        if (acknowledged < wanted) {
            dropNow();
            throw new LockException(hold.name(), "The " + lock.description() + " was acquired on the master but only "
                    + acknowledged + " of " + wanted + " replica(s) confirmed it within " + timeout + " ms, so it was"
                    + " released again. Check the replicas, or lower locksmith.redis.sync-replicas / raise sync-timeout.",
                    null);
        }
    }

    /**
     * @return the call that drops this owner's hold, sent after a failed acquisition
     */
    ScriptCall dropCall() {
        return HoldCalls.releaseAll(lock.keys().holdKeys(), lock.kind().holdField(owner), lock.kind().expiryField(owner));
    }

    /**
     * Drops this owner's hold without waiting for the answer: used where an acquisition failed in
     * a way that leaves open whether Redis applied it. Sent on the same connection after the
     * acquisition, so Redis runs it after that acquisition.
     */
    void dropNow() {
        try {
            // By text: a NOSCRIPT retry of it would run after this owner's next attempt and undo that one.
            context.store().everywhere(dropCall().withText()).whenComplete((released, failure) -> {
                if (failure != null) {
                    LOG.log(Level.WARNING, "Could not clean up an uncertain acquisition of the " + lock.description()
                            + "; it expires with its lease", failure);
                }
            });
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not clean up an uncertain acquisition of the " + lock.description()
                    + "; it expires with its lease", e);
        }
    }
}
