package dev.locksmith.internal.lock;

import dev.locksmith.LockException;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lock.kind.AcquireRequest;
import dev.locksmith.internal.lock.local.HandOver;
import dev.locksmith.internal.lock.local.LocalContention;
import dev.locksmith.internal.lock.ring.GrantTrust;
import dev.locksmith.internal.lock.ring.ProcessRing;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.wire.AcquireReply;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The requests of one acquisition and the hold they bring: sends each attempt of the lock's kind
 * (joining the ring, taking a grant), reads its answer, and records the hold that an answer or a
 * hand-over gives ({@link HoldGrant}). While an attempt is under way, this process trusts no
 * grant of the lock ({@link GrantTrust#beginAttempt()}), so that the attempt may take one itself.
 */
final class HoldRequests {
    private static final Logger LOG = System.getLogger(HoldRequests.class.getName());

    private final LockTarget lock;
    private final LockContext context;
    private final String owner;
    private final long lease;
    private final String threadName;
    private final HoldGrant grants;
    private long uncertainSince = HandOver.NONE;
    private Hold granted;
    private long sentAt;
    private boolean takesGrant;
    private GrantTrust attemptRing;

    /**
     * @param owner      who acquires
     * @param lease      the lease in ms
     * @param watchdog   whether the lease keeper renews the lease
     * @param threadName the acquiring thread, as inspection shows it
     */
    HoldRequests(LockTarget lock, String owner, long lease, boolean watchdog, String threadName) {
        this.lock = lock;
        this.context = lock.context();
        this.owner = owner;
        this.lease = lease;
        this.threadName = threadName;
        this.grants = new HoldGrant(lock, owner, lease, watchdog);
    }

    /**
     * @return when the last attempt was sent, on the lease keeper's clock
     */
    long sentAt() {
        return sentAt;
    }

    /**
     * Says that a hand-over to this waiter may have passed it the lock although no answer said so:
     * a hold it now finds in Redis may date from then.
     *
     * @param since when that hand-over was sent, or {@link HandOver#NONE}
     */
    void mayAlreadyHoldSince(long since) {
        uncertainSince = since;
    }

    /**
     * Sends one attempt without waiting for its answer, so that several locks' attempts can
     * share one round trip (a multi-lock).
     *
     * @param joinsRing whether the attempt enters this process into the lock's ring if it is taken
     * @param grant     the fencing token of a grant to this process to take, or {@link ProcessRing#NO_GRANT}
     * @return the pending answer, for {@link #settle}
     */
    CompletionStage<List<Long>> send(boolean joinsRing, long grant) {
        sentAt = context.leases().now();
        LocalContention contention = context.contention().contending(lock.keys().channel());
        attemptRing = contention == null ? null : contention.ring().grants();
        takesGrant = attemptRing != null && attemptRing.beginAttempt();
        try {
            return sendRequest(joinsRing, grant);
        } catch (RuntimeException | Error e) {
            endAttempt();
            throw e;
        }
    }

    /**
     * The attempt a waiter makes when its process is offered the lock, sent by the pub/sub thread
     * that hears the offer: it changes nothing here, its answer reaches the waiter through its
     * {@link HandOver}.
     */
    CompletionStage<List<Long>> sendOnOffer(boolean joinsRing, long grant) {
        return sendRequest(joinsRing, grant);
    }

    private CompletionStage<List<Long>> sendRequest(boolean joiningRing, long grant) {
        AcquireRequest request = new AcquireRequest(owner, lease, System.currentTimeMillis(), threadName,
                lock.counterLifetimeMillis(), joiningRing, takesGrant);
        ScriptCall call = grant == ProcessRing.NO_GRANT ? lock.kind().acquisition(lock.keys(), request)
                : lock.kind().takeGrant(lock.keys(), request, grant);
        return context.store().acquire(call, grants.dropCall(), lease);
    }

    private void endAttempt() {
        if (attemptRing != null) {
            attemptRing.endAttempt();
            attemptRing = null;
        }
        takesGrant = false;
    }

    /**
     * @param pending what {@link #send} returned
     * @return granted (the hold is in {@link #granted()}), or busy with how long until the lock may
     *         be free
     * @throws LockException if Redis did not answer or refused; whatever it may have granted is
     *                       taken back once the attempt's last command is answered
     */
    AcquireReply settle(CompletionStage<List<Long>> pending) {
        try {
            AcquireReply answer;
            try {
                answer = AcquireReply.read(context.replies().await(pending, "Acquiring ", lock.description()));
            } catch (LockException e) {
                // After the attempt's own last command (a NOSCRIPT retry included), never before it:
                // a drop that overtook a late attempt would leave that attempt's grant behind.
                pending.whenComplete((ignored, failure) -> grants.dropNow());
                throw e;
            }
            if (answer instanceof AcquireReply.Granted grantedNow) {
                if (attemptRing != null) {
                    // A grant to this process that this attempt took ('g') is stale from now on,
                    // however late its message comes: every grant standing later is newer.
                    attemptRing.joinedRing(sentAt, grantedNow.fencingToken());
                }
                record(grantedNow.fencingToken(), sentAt);
            }
            return answer;
        } finally {
            endAttempt(); // once its hold is recorded: until then a grant heard is not trusted
        }
    }

    /**
     * @return the hold the last settled attempt or hand-over gave, or null
     */
    Hold granted() {
        return granted;
    }

    /**
     * Records the hold a release here, or a grant to this process, handed this waiter. A grant
     * trusted before Redis confirmed it ({@link HandOver#confirmation()}) holds until the grant's
     * patience runs out, and then as long as its confirmation says; one whose confirmation was
     * answered before this waiter took it is taken only if Redis confirmed it.
     *
     * @return the hold, or null when the grant's confirmation was refused or failed first: the
     *         waiter asks Redis (where it finds its hold, should an unanswered confirmation have
     *         given it one)
     */
    Hold recordHandOver(HandOver me) {
        if (me.confirmation() == null) {
            return record(me.token(), me.sentAt());
        }
        HoldGrant.Confirmation confirmation = grants.confirmationOf(me);
        if (confirmation == HoldGrant.Confirmation.PENDING) {
            granted = grants.recordTrusted(me.token(), me.sentAt(), me.trustedUntil(), me.confirmation());
            return granted;
        }
        if (confirmation == HoldGrant.Confirmation.UNKNOWN) {
            mayAlreadyHoldSince(me.sentAt());
        }
        return confirmation == HoldGrant.Confirmation.CONFIRMED ? record(me.token(), me.sentAt()) : null;
    }

    /**
     * Gives back a lock a release here handed this waiter after it stopped waiting (an error on
     * its own path): nobody here would otherwise release it before its lease ran out.
     */
    void giveBackHandOver(HandOver me) {
        LOG.log(Level.WARNING, "A thread stopped waiting for the " + lock.description() + " while a release handed"
                + " it the lock (fencing token " + me.token() + "); releasing it again");
        grants.dropNow();
    }

    /**
     * Records a hold Redis granted ({@link HoldGrant}). Its lease counts from when the request that
     * got it was sent, or from an earlier hand-over of unknown outcome.
     *
     * @param since when the request that got it was sent, on the lease keeper's clock
     */
    private Hold record(long fencingToken, long since) {
        long from = uncertainSince == HandOver.NONE ? since : Math.min(since, uncertainSince);
        granted = grants.record(fencingToken, from);
        return granted;
    }
}
