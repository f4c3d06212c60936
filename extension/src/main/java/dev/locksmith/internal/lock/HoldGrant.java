package dev.locksmith.internal.lock;

import dev.locksmith.LockException;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lease.HoldCalls;
import dev.locksmith.internal.lock.local.HandOver;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.wire.AcquireReply;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

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
        return record(newHold(fencingToken, since));
    }

    /**
     * Records a grant trusted before Redis confirmed it ({@code ProcessRing#trustHeardGrant}):
     * nobody else can be given the lock until {@code trustedUntil}. The confirmation's answer, now
     * or when it comes, settles the hold: held on for a whole lease from {@code heardAt}, or lost
     * when the grant was passed on before it came (this process was frozen or cut off for the
     * grant's patience), or when no answer came (the hold is then dropped, as it may have been
     * confirmed after all). Until then the hold sends nothing but its last release ({@link Hold#confirmation()}).
     *
     * @param heardAt      when the grant was heard and its confirmation sent, on the lease keeper's clock
     * @param confirmation the pending answer of {@code take-grant}
     */
    Hold recordTrusted(long fencingToken, long heardAt, long trustedUntil, CompletionStage<List<Long>> confirmation) {
        Hold hold = newHold(fencingToken, heardAt);
        hold.heldOnlyUntil(trustedUntil);
        CompletableFuture<Void> settled = new CompletableFuture<>();
        hold.confirmedBy(settled);
        confirmation.whenComplete((reply, failure) -> {
            try {
                settle(hold, reply, failure, heardAt);
            } finally {
                settled.complete(null);
            }
        });
        return record(hold);
    }

    /** What became of the confirmation of a grant handed to a waiter on its word, when it takes it. */
    enum Confirmation {
        /** Not answered yet: the waiter holds the lock on the grant's word. */
        PENDING,
        /** Redis confirmed it: the waiter holds the lock. */
        CONFIRMED,
        /** Redis answered that the grant is gone. */
        REFUSED,
        /** No answer came, or none that could be read: Redis may have confirmed it. */
        UNKNOWN
    }

    /**
     * @param handed a waiter handed a grant on its word ({@link HandOver#confirmation()} not null)
     */
    Confirmation confirmationOf(HandOver handed) {
        CompletableFuture<List<Long>> confirmation = handed.confirmation().toCompletableFuture();
        if (!confirmation.isDone()) {
            return Confirmation.PENDING;
        }
        if (confirmation.isCompletedExceptionally()) {
            return Confirmation.UNKNOWN;
        }
        try {
            return AcquireReply.read(confirmation.join()) instanceof AcquireReply.Granted confirmed
                    && confirmed.fencingToken() == handed.token() ? Confirmation.CONFIRMED : Confirmation.REFUSED;
        } catch (IllegalArgumentException unreadable) {
            return Confirmation.UNKNOWN;
        }
    }

    private void settle(Hold hold, List<Long> reply, Throwable failure, long sentAt) {
        AcquireReply answer = null;
        Throwable why = failure;
        if (failure == null) {
            try {
                answer = AcquireReply.read(reply);
            } catch (RuntimeException unreadable) {
                why = unreadable;
            }
        }
        if (answer instanceof AcquireReply.Granted granted && granted.fencingToken() == hold.fencingToken()) {
            context.leases().grantConfirmed(hold, sentAt);
        } else if (why == null) {
            context.leases().grantRefused(hold, "the grant it was heard in was passed on before Redis confirmed it"
                    + " (this process did not answer within the grant's patience)", null);
        } else if (context.leases().grantRefused(hold, "Redis did not confirm the grant it was heard in", why)) {
            dropNow();
        }
    }

    private Hold newHold(long fencingToken, long since) {
        return new Hold(lock.name(), lock.description(), lock.keys().holdKeys(), owner, lock.kind().holdField(owner),
                lock.kind().expiryField(owner), fencingToken, lease, watchdog, since);
    }

    private Hold record(Hold hold) {
        long fencingToken = hold.fencingToken();
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
        lock.awaitConfirmed(hold); // WAIT counts the writes Redis ran before it: the confirmation's too
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
