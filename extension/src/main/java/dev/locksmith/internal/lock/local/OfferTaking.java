package dev.locksmith.internal.lock.local;

import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.lock.ring.ProcessRing;
import dev.locksmith.internal.wire.AcquireReply;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * What the pub/sub thread does with an offer of one lock to this process: when the line's first
 * waiter sleeps, it claims it and sends its attempt at once ({@code OfferAttempt}); the attempt's
 * answer settles the claim, on the thread that completes it. Otherwise the first waiter is woken
 * to ask. The claim, the settle and the seat's bookkeeping run under the lock's mutex; the
 * attempt is sent outside it.
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

    OfferTaking(ReentrantLock mutex, WaiterLine line, WakeUps wakeUps, ProcessRing ring, ManagerState state,
                LongSupplier clock, LockKeys keys) {
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
        mutex.lock();
        try {
            ProcessRing.Heard outcome = ring.offered(message, !line.isEmpty() && state.isOpen());
            if (outcome == ProcessRing.Heard.PASSED_ON) {
                return;
            }
            wakeUps.heardOffer();
            taker = outcome == ProcessRing.Heard.TAKE && state.isOpen() ? line.claimFirstForOffer(clock.getAsLong())
                    : null;
            if (taker == null) {
                line.signalFirst(); // unreadable, or nobody asleep to claim: the first waiter asks
                return;
            }
            heard = ring.messages();
        } finally {
            mutex.unlock();
        }
        long sentAt = taker.claimedAt(); // no later than the attempt's sending
        CompletionStage<List<Long>> answer = null;
        try {
            answer = taker.offerAttempt().send();
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        } finally {
            if (answer == null) {
                // An Error while sending: the waiter must not sit claimed for the whole claim
                // patience; it asks Redis itself at once. The Error goes on up this thread.
                settle(taker, heard, sentAt, null, new IllegalStateException("The offer's attempt failed"));
            }
        }
        answer.whenComplete((reply, failure) -> settle(taker, heard, sentAt, reply, failure));
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
                ring.attempted(heard, answer instanceof AcquireReply.Granted, answer.inRing());
                if (answer instanceof AcquireReply.Granted granted) {
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
