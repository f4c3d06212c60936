package dev.locksmith.internal.lock.local;

import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.lock.ring.OfferOutcome;
import dev.locksmith.internal.lock.ring.ProcessRing;
import dev.locksmith.internal.wire.AcquireReply;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * What the pub/sub thread does with an offer of one lock to this process: when the line's first
 * waiter sleeps, it claims it and sends its attempt at once ({@code OfferAttempt}; for a grant,
 * the grant's confirmation). A grant the seat can trust ({@code ProcessRing#trustHeardGrant})
 * hands the waiter the lock at once, and the confirmation's answer settles its hold later;
 * otherwise the attempt's answer settles the claim, on the thread that completes it. With no
 * waiter asleep, the first waiter is woken to ask. The claim, the settle and the seat's
 * bookkeeping run under the lock's mutex; the attempt is sent outside it.
 */
final class OfferTaking {
    private static final Logger LOG = System.getLogger(OfferTaking.class.getName());

    private final ReentrantLock mutex;
    private final WaiterLine line;
    private final WakeUps wakeUps;
    private final ProcessRing ring;
    private final ManagerState state;
    private final LongSupplier clock;
    private final LockKeys keys;
    private final Predicate<String> holdsLock;

    OfferTaking(ReentrantLock mutex, WaiterLine line, WakeUps wakeUps, ProcessRing ring, ManagerState state,
                LongSupplier clock, LockKeys keys, Predicate<String> holdsLock) {
        this.holdsLock = holdsLock;
        this.mutex = mutex;
        this.line = line;
        this.wakeUps = wakeUps;
        this.ring = ring;
        this.state = state;
        this.clock = clock;
        this.keys = keys;
    }

    /**
     * An offer of the lock to this process, heard on its own channel; called without the mutex.
     */
    void take(String message) {
        HandOver taker;
        long heard;
        long grant;
        long trustedUntil;
        mutex.lock();
        try {
            OfferOutcome outcome = ring.offered(message, !line.isEmpty() && state.isOpen());
            if (outcome == OfferOutcome.PASSED_ON) {
                return;
            }
            wakeUps.heardOffer();
            taker = outcome == OfferOutcome.TAKE && state.isOpen() ? line.claimFirstForOffer(clock.getAsLong())
                    : null;
            if (taker == null) {
                line.signalFirst(); // unreadable, or nobody asleep to claim: the first waiter asks
                return;
            }
            heard = ring.messages();
            grant = ring.heardGrant();
            // A thread here holding the lock took this grant already (an attempt with 'g'): it is stale.
            trustedUntil = holdsLock.test(keys.lock()) ? ProcessRing.UNTRUSTED : ring.trustHeardGrant(taker.claimedAt());
        } finally {
            mutex.unlock();
        }
        long sentAt = taker.claimedAt(); // no later than the attempt's sending
        CompletionStage<List<Long>> answer = null;
        boolean sent = false;
        try {
            answer = taker.offerAttempt().send(grant);
            sent = true;
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        } finally {
            if (answer == null) {
                // An Error while sending: the waiter must not sit claimed for the whole claim
                // patience; it asks Redis itself at once. The Error goes on up this thread.
                settle(taker, heard, sentAt, null, new IllegalStateException("The offer's attempt failed"));
            }
        }
        if (sent && trustedUntil != ProcessRing.UNTRUSTED) {
            handOnGrant(taker, grant, sentAt, trustedUntil, answer);
            answer.whenComplete((reply, failure) -> confirmed(heard, reply, failure));
        } else {
            answer.whenComplete((reply, failure) -> settle(taker, heard, sentAt, reply, failure));
        }
    }

    private void handOnGrant(HandOver taker, long grant, long sentAt, long trustedUntil,
                             CompletionStage<List<Long>> confirmation) {
        mutex.lock();
        try {
            line.handedOnGrant(taker, grant, sentAt, trustedUntil, confirmation);
        } finally {
            mutex.unlock();
        }
    }

    /**
     * The seat learns how the confirmation of a grant trusted on hearing it ended; the waiter's
     * hold learns it from the same answer ({@code HoldGrant#awaitConfirmation}).
     */
    private void confirmed(long heard, List<Long> reply, Throwable failure) {
        boolean granted = false;
        boolean answered = failure == null;
        if (answered) {
            try {
                granted = AcquireReply.read(reply) instanceof AcquireReply.Granted;
            } catch (RuntimeException unreadable) {
                answered = false; // the hold hears of it, and is dropped; the seat counts it as not taken
            }
        }
        mutex.lock();
        try {
            ring.grants().settled();
            ring.attempted(heard, granted, false);
        } finally {
            mutex.unlock();
        }
        if (!answered) {
            // Refused (NOPERM, OOM) or unanswered: the grant may still stand, for nobody here now.
            ring.declineTrustedGrant();
        }
    }

    /**
     * Settles a waiter claimed for an offer with its attempt's answer. An attempt that failed
     * leaves the offer heard standing: the waiter asks Redis itself (finding its hold, should
     * Redis have granted it all the same), and if it gives up, the offer is passed on. Whatever
     * this throws, the waiter is settled (in a {@code finally}), never left claimed.
     */
    private void settle(HandOver taker, long heard, long sentAt, List<Long> reply, Throwable failure) {
        mutex.lock();
        try {
            if (failure != null) {
                line.fellThrough(taker, sentAt, true);
            } else {
                AcquireReply answer = AcquireReply.read(reply);
                if (answer instanceof AcquireReply.Busy busy && busy.spentToken() != AcquireReply.Busy.NO_TOKEN) {
                    ring.grants().joinedRing(sentAt, busy.spentToken());
                }
                ring.attempted(heard, answer instanceof AcquireReply.Granted, answer.inRing());
                if (answer instanceof AcquireReply.Granted granted) {
                    ring.grants().joinedRing(sentAt, granted.fencingToken());
                    line.handed(taker, granted.fencingToken(), sentAt);
                } else {
                    line.fellThrough(taker, sentAt, false);
                }
            }
        } catch (Throwable unexpected) {
            // Thrown on the thread that completed the attempt, where nobody would hear of it.
            LOG.log(Level.WARNING, "Settling an offer of " + keys.lock() + " to a waiting thread failed; it asks"
                    + " Redis itself", unexpected);
            throw unexpected;
        } finally {
            // Whatever happened above, a waiter still claimed is settled now: it asks Redis
            // itself (where it finds the lock if the attempt got it) instead of waiting out the
            // claim patience. A no-op once it was handed the lock or fell through.
            line.fellThrough(taker, sentAt, true);
            mutex.unlock();
        }
    }
}
