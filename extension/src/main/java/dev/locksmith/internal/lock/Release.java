package dev.locksmith.internal.lock;

import dev.locksmith.LockException;
import dev.locksmith.LockLostException;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lock.kind.RingRelease;
import dev.locksmith.internal.lock.local.HandOver;
import dev.locksmith.internal.lock.local.LocalContention;
import dev.locksmith.internal.lock.ring.OfferDesk;
import dev.locksmith.internal.redis.RedisErrors;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.wire.ReleaseReply;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One release of one hold, on its way to Redis: the one path by which every hold ends, whoever
 * releases it ({@code unlock()} of any kind, a multi-lock releasing its parts together, the
 * release after a JTA transaction on its completion thread).
 *
 * <p>A hold entered more than once only counts down. Its last release either hands the lock
 * straight to a sleeping waiter of this process ({@link HandOver}; the reentrant lock on one
 * Redis deployment, where {@link LockTarget#handsOver()}), or releases it in Redis, which offers
 * it to the next process of the lock's ring if one waits ({@link RingRelease}); this process then
 * watches that offer ({@link OfferDesk#watch}). A last release before the hold's minimum hold
 * passed keeps the lock, held by nobody, for the rest of it ({@code keep} in {@code leases.lua}).
 *
 * <p>Once a last release is sent, its hold leaves the watchdog whatever the answer, and after the
 * answer (or its failure) the hold is forgotten here: a release that failed, or whose answer
 * never came, leaves the lock in Redis until its lease runs out, never longer. A claimed waiter
 * is settled, and the line woken, in a {@code finally}.
 */
final class Release {
    private static final Logger LOG = System.getLogger(Release.class.getName());

    private final LockTarget lock;
    private final Hold hold;
    private final boolean last;
    private final LocalContention line;
    private final HandOver taker;
    private final long sentAt;
    private final RingRelease offer;
    private final long offersHeard;
    private final CompletionStage<Long> answer;

    private Release(LockTarget lock, Hold hold, boolean last, LocalContention line, HandOver taker, long sentAt,
                    RingRelease offer, long offersHeard, CompletionStage<Long> answer) {
        this.offersHeard = offersHeard;
        this.lock = lock;
        this.hold = hold;
        this.last = last;
        this.line = line;
        this.taker = taker;
        this.sentAt = sentAt;
        this.offer = offer;
        this.answer = answer;
    }

    /**
     * Sends the release of one hold without waiting for its answer, so that several locks'
     * releases can share one round trip; {@link #settle()} must follow.
     *
     * @throws LockLostException     at once when the hold is known to be lost
     * @throws IllegalStateException if the manager is closed
     */
    static Release send(LockTarget lock, Hold hold) {
        LockContext context = lock.context();
        context.state().enter();
        try {
            return start(lock, hold);
        } catch (RuntimeException | Error e) {
            context.state().exit();
            throw e;
        }
    }

    private static Release start(LockTarget lock, Hold hold) {
        LockContext context = lock.context();
        // A grant held on its word ends without waiting for its confirmation: Redis takes a last
        // release from the grantee either way (release in exclusive.lua). Anything else waits, and
        // so does a grant that a thread asleep here could be handed: a hand-over needs the hold
        // confirmed, and without one the lock would leave for the ring at every release.
        boolean onItsWord = !hold.confirmation().isDone() && hold.count() == 1 && lock.offersToOtherProcesses()
                && hold.keepLeftMillis(context.leases().now()) <= 0
                && !aThreadHereCouldBeHandedIt(lock);
        if (!onItsWord) {
            lock.awaitConfirmed(hold);
        }
        if (hold.isLost()) {
            context.leases().forget(hold);
            context.contention().wakeLine(lock.keys().channel());
            throw lost(lock, hold, "before it was released");
        }
        int count = hold.count();
        if (count > 1) {
            ScriptCall call = lock.kind().holdCount(lock.keys(), hold.owner(), count - 1, 0);
            return new Release(lock, hold, false, null, null, 0, RingRelease.NONE, 0,
                    call == null ? null : context.store().update(call, 0));
        }
        long keepMillis = hold.keepLeftMillis(context.leases().now());
        if (keepMillis > 0) {
            return keep(lock, hold, keepMillis);
        }
        LocalContention line = contendingLine(lock);
        HandOver taker = line == null || !lock.handsOver() || onItsWord ? null : line.handOvers().claimNext();
        long sentAt = context.leases().now();
        try {
            RingRelease offer = lock.offersToOtherProcesses()
                    ? new RingRelease(true, hold.leaseMillis(), line != null && line.isListening(),
                            context.settings().commandTimeout().toMillis(), lock.counterLifetimeMillis(),
                            onItsWord ? hold.fencingToken() : RingRelease.CONFIRMED)
                    : RingRelease.NONE;
            String requestId = context.owners().nextRequestId();
            long latchMillis = context.settings().commandTimeout().toMillis();
            ScriptCall call = taker == null
                    ? lock.kind().release(lock.keys(), hold.owner(), requestId, latchMillis, offer)
                    : lock.kind().handOver(lock.keys(), hold.owner(),
                            taker.request(System.currentTimeMillis(), lock.counterLifetimeMillis()),
                            requestId, latchMillis);
            context.leases().releasing(hold);
            // Read before sending: an offer that comes round before this release's answer is heard after it.
            long offersHeard = line == null ? 0 : line.ring().messages();
            CompletionStage<Long> answer;
            try {
                answer = context.store().update(call, -1);
            } catch (RuntimeException e) {
                answer = CompletableFuture.failedFuture(e);
            }
            return new Release(lock, hold, true, line, taker, sentAt, offer, offersHeard, answer);
        } catch (RuntimeException | Error e) {
            if (taker != null) {
                line.handOvers().fellThrough(taker, sentAt, false);
            }
            throw e;
        }
    }

    private static boolean aThreadHereCouldBeHandedIt(LockTarget lock) {
        LocalContention line = lock.handsOver() ? contendingLine(lock) : null;
        return line != null && line.handOvers().anyoneToHandTo();
    }

    /**
     * @return this process's line for the lock, if a thread here waits for it and the lock hands
     *         over or offers to other processes; null otherwise
     */
    private static LocalContention contendingLine(LockTarget lock) {
        return lock.handsOver() || lock.offersToOtherProcesses()
                ? lock.context().contention().contending(lock.keys().channel()) : null;
    }

    /**
     * The last release of a hold whose minimum hold has not passed: the lock stays in Redis, held by
     * nobody, for what is left of it. It is never handed over, and leaves the watchdog like any
     * last release; a waiter of this process then waits for that time like one elsewhere.
     */
    private static Release keep(LockTarget lock, Hold hold, long keepMillis) {
        LockContext context = lock.context();
        ScriptCall call = lock.kind().keep(lock.keys(), hold.owner(), context.owners().nextRequestId(),
                context.settings().commandTimeout().toMillis(), keepMillis);
        long sentAt = context.leases().now();
        context.leases().releasing(hold);
        CompletionStage<Long> answer;
        try {
            answer = context.store().update(call, -1);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        return new Release(lock, hold, true, null, null, sentAt, RingRelease.NONE, 0, answer);
    }

    /**
     * Waits for the answer and ends what the release started.
     *
     * @return the holds of that owner left
     * @throws LockLostException if Redis no longer had the hold
     * @throws LockException     if Redis answered with an error or not at all: for a last release
     *                           the hold is forgotten here and the lock frees itself when its
     *                           lease runs out; otherwise the hold's count still goes down, so the
     *                           release that ends it needs no repeat of this one
     */
    int settle() {
        try {
            return last ? settleLast() : settleCount();
        } finally {
            if (taker != null) {
                line.handOvers().fellThrough(taker, sentAt, true); // only if no answer settled it: then it is unknown
            }
            lock.context().state().exit();
        }
    }

    private int settleCount() {
        long result;
        try {
            result = answer == null ? 1 : lock.context().replies().await(answer, "Updating ", lock.description());
        } catch (LockException e) {
            // The count is the holder's own (Redis keeps a copy for inspection only): it goes down
            // whatever Redis answered, so the outer release still ends the hold. Left as it was, the
            // watchdog would renew a hold nobody means to release again.
            hold.countIs(hold.count() - 1);
            throw countDownFailed(e);
        }
        if (result == 0) {
            lock.context().leases().forget(hold);
            throw lost(lock, hold, "before it was released: its lease expired or it was force-unlocked");
        }
        hold.countIs(hold.count() - 1);
        return hold.count();
    }

    private int settleLast() {
        LockContext context = lock.context();
        long result;
        try {
            result = context.replies().await(answer, taker == null ? "Releasing " : "Handing over ", lock.description());
        } catch (LockException e) {
            context.leases().forget(hold);
            context.contention().wakeLine(lock.keys().channel());
            throw failed(e);
        }
        context.leases().forget(hold);
        ReleaseReply reply = ReleaseReply.read(result, taker != null);
        if (reply == ReleaseReply.LOST) {
            if (taker != null) {
                line.handOvers().fellThrough(taker, sentAt, false); // Redis said so: nothing was passed
            }
            context.contention().wakeLine(lock.keys().channel());
            throw lost(lock, hold, "before it was released: its lease expired or it was force-unlocked");
        }
        hold.countIs(0);
        if (reply instanceof ReleaseReply.HandedOver handed) {
            line.handOvers().handed(taker, handed.fencingToken(), sentAt);
            context.observer().handedOver(lock.label());
            return 0;
        }
        if (reply == ReleaseReply.OFFERED) {
            // Offered to another process: a waiter here waits for its own turn, if this process stayed in the ring.
            if (line != null) {
                line.ring().releasedToRing(hold.fencingToken(), offer.staysInRing(), offersHeard);
            }
            context.contention().watchOffer(lock.keys(), hold.fencingToken());
            context.observer().yielded(lock.label());
        } else if (line != null) {
            line.ring().releasedFree(offersHeard); // nobody else waits: a waiter here asks Redis, where it is free
        }
        // Also after Redis published the release: a waiter here may wait for this holder, not for Redis.
        context.contention().wakeLine(lock.keys().channel());
        return 0;
    }

    private LockException failed(LockException cause) {
        String message = cause.getMessage() + ". The hold (fencing token " + hold.fencingToken() + ") is dropped here"
                + " and no longer renewed, so the lock frees itself when its lease runs out, within "
                + hold.leaseMillis() + " ms";
        LOG.log(Level.WARNING, message);
        lock.context().observer().releaseFailed(lock.label(), RedisErrors.kind(cause));
        return new LockException(hold.name(), message, cause);
    }

    private LockException countDownFailed(LockException cause) {
        String message = cause.getMessage() + ". The release still counted: the " + lock.description() + " (fencing"
                + " token " + hold.fencingToken() + ") is held " + hold.count() + " more time(s) here, and the"
                + " release that ends it frees it as usual; until then describe() may show the count from before";
        LOG.log(Level.WARNING, message);
        lock.context().observer().releaseFailed(lock.label(), RedisErrors.kind(cause));
        return new LockException(hold.name(), message, cause);
    }

    private static LockLostException lost(LockTarget lock, Hold hold, String when) {
        return new LockLostException(hold.name(), "The " + lock.description() + " (fencing token " + hold.fencingToken()
                + ") was lost " + when + ". Work done since the loss was not protected by the lock.");
    }
}
