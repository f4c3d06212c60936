package dev.locksmith.internal.lock.local;

import dev.locksmith.internal.lock.ring.OfferAttempt;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The line of one lock's waiters in this process, in arrival order, and every step of their
 * hand-overs ({@link HandOver}). How many hand-overs are under way is read off the waiters' own
 * states ({@link #handOversUnderWay()}), never counted apart. Not thread-safe: every method runs
 * under the mutex of the lock's {@link LocalContention}, which the line shares.
 */
final class WaiterLine {
    /** How many times in a row a lock passes between threads of this process without Redis releasing it. */
    static final int HAND_OVERS_IN_A_ROW = 8;

    private final ReentrantLock mutex;
    private final long claimPatienceNanos;
    private final Deque<HandOver> line = new ArrayDeque<>();
    private final List<HandOver> joined = new ArrayList<>(); // from join to leave: in the line, or claimed out of it
    private int handedInARow;

    /**
     * @param claimPatienceNanos the longest a claimed waiter waits for its settle: the longest a
     *                           round trip can last
     */
    WaiterLine(ReentrantLock mutex, long claimPatienceNanos) {
        this.mutex = mutex;
        this.claimPatienceNanos = claimPatienceNanos;
    }

    HandOver join(String owner, long leaseMillis, String threadName, OfferAttempt offerAttempt) {
        HandOver waiter = new HandOver(owner, leaseMillis, threadName, mutex.newCondition(), offerAttempt);
        line.addLast(waiter);
        joined.add(waiter);
        return waiter;
    }

    boolean isEmpty() {
        return line.isEmpty();
    }

    /**
     * @return whether {@code me} may ask Redis: it is first, and no hand-over to another waiter is
     *         under way (that waiter may hold the lock already)
     */
    boolean mayAsk(HandOver me) {
        return line.peekFirst() == me && handOversUnderWay() == 0;
    }

    /**
     * @return how many waiters a hand-over is under way to, read off their states
     */
    int handOversUnderWay() {
        int underWay = 0;
        for (HandOver waiter : joined) {
            if (waiter.state().isUnderWay()) {
                underWay++;
            }
        }
        return underWay;
    }

    /**
     * @return a sleeping waiter, claimed now; null when none sleeps, or after
     *         {@link #HAND_OVERS_IN_A_ROW} hand-overs in a row (the release then goes through Redis)
     */
    HandOver claimNext(long now) {
        HandOver taker = firstParked();
        if (taker == null || handedInARow >= HAND_OVERS_IN_A_ROW) {
            handedInARow = 0;
            return null;
        }
        handedInARow++;
        line.remove(taker);
        taker.claimed(now);
        return taker;
    }

    /**
     * @return whether a waiter sleeps that {@link #claimNext} could claim
     */
    boolean anyParked() {
        return firstParked() != null;
    }

    private HandOver firstParked() {
        for (HandOver waiter : line) {
            if (waiter.state() == HandOver.State.PARKED) {
                return waiter;
            }
        }
        return null;
    }

    /**
     * @return the first waiter, claimed now for an offer to this process; null unless it sleeps,
     *         can be sent an attempt, and no other hand-over is under way
     */
    HandOver claimFirstForOffer(long now) {
        HandOver first = line.peekFirst();
        if (first == null || first.offerAttempt() == null || first.state() != HandOver.State.PARKED
                || handOversUnderWay() > 0) {
            return null;
        }
        line.removeFirst();
        first.claimed(now);
        return first;
    }

    /**
     * Settles a claimed waiter with the lock; a no-op once it is settled.
     */
    void handed(HandOver taker, long token, long sentAt) {
        if (taker.state() == HandOver.State.CLAIMED) {
            taker.handed(token, sentAt);
            taker.signal().signal();
        }
    }

    /**
     * Settles a claimed waiter with a grant on its word, before Redis confirmed it; a no-op once
     * it is settled.
     */
    void handedOnGrant(HandOver taker, long grant, long heardAt, long trustedUntil,
                       CompletionStage<List<Long>> confirmation) {
        if (taker.state() == HandOver.State.CLAIMED) {
            taker.handedOnGrant(grant, heardAt, trustedUntil, confirmation);
            taker.signal().signal();
        }
    }

    /**
     * Settles a claimed waiter without the lock: it goes back to the front and asks Redis itself.
     * A no-op once it is settled.
     */
    void fellThrough(HandOver taker, long sentAt, boolean uncertain) {
        if (taker.state() == HandOver.State.CLAIMED) {
            taker.fellThrough(sentAt, uncertain);
            line.addFirst(taker);
            taker.signal().signal();
        }
    }

    /**
     * What a settled hand-over means for its waiter; waits first while it is being settled.
     *
     * @return HANDED or ASK once the hand-over is settled, null when none was made
     */
    Turn collect(HandOver me) {
        if (me.state() == HandOver.State.CLAIMED) {
            awaitSettle(me);
        }
        if (me.state() == HandOver.State.HANDED) {
            // Under way until it recorded the hold (taken), so the next waiter sees a local holder.
            me.moveTo(HandOver.State.TAKING);
            return Turn.HANDED;
        }
        if (me.state() == HandOver.State.FELL_THROUGH) {
            me.moveTo(HandOver.State.WAITING);
            return Turn.ASK;
        }
        return null;
    }

    /**
     * A waiter handed the lock recorded its hold, or failed to; the next waiter, first now, finds
     * that hold instead of asking Redis.
     */
    void taken(HandOver me) {
        if (me.state() == HandOver.State.TAKING) {
            me.moveTo(HandOver.State.WAITING);
        }
        signalFirst();
    }

    /**
     * {@code me} was handed a grant whose confirmation Redis refused, or did not answer, before it
     * took it: it goes back to the front, where offers to this process find it, and asks Redis.
     */
    void handOverRefused(HandOver me) {
        if (me.state() == HandOver.State.TAKING) {
            me.moveTo(HandOver.State.WAITING);
        }
        if (!line.contains(me)) {
            line.addFirst(me);
        }
    }

    /**
     * Takes {@code me} out of the line for good, settled first if a hand-over to it is under way.
     *
     * @return true when it was handed the lock and did not collect it: the caller gives the hold back
     */
    boolean leave(HandOver me) {
        if (me.state() == HandOver.State.CLAIMED) {
            awaitSettle(me);
        }
        boolean uncollected = me.state() == HandOver.State.HANDED;
        if (uncollected || me.state() == HandOver.State.FELL_THROUGH || me.state() == HandOver.State.TAKING) {
            me.moveTo(HandOver.State.WAITING);
        }
        boolean wasFirst = line.peekFirst() == me;
        line.remove(me);
        joined.remove(me);
        if (wasFirst || uncollected) {
            signalFirst();
        }
        return uncollected;
    }

    /**
     * Sleeps where a hand-over can reach {@code me}. Interrupted while a release here is already
     * handing it the lock, it keeps the interrupt status and returns, to take the lock.
     */
    void park(HandOver me, long nanos, Waiting waiting) throws InterruptedException {
        me.moveTo(HandOver.State.PARKED);
        try {
            waiting.await(me.signal(), nanos);
        } catch (InterruptedException e) {
            if (me.state() == HandOver.State.PARKED) {
                throw e;
            }
            Thread.currentThread().interrupt();
        } finally {
            if (me.state() == HandOver.State.PARKED) {
                me.moveTo(HandOver.State.WAITING);
            }
        }
    }

    void signalFirst() {
        HandOver first = line.peekFirst();
        if (first != null) {
            first.signal().signal();
        }
    }

    void signalEveryone() {
        line.forEach(waiter -> waiter.signal().signal());
    }

    /**
     * @return the waiters asleep in the line (a release here may claim them), and those asleep
     *         out of it until the thread that claimed them settles their hand-over
     */
    SleepingWaiters sleeping(int othersAsleep) {
        int parked = 0;
        int claimed = 0;
        for (HandOver waiter : joined) {
            if (waiter.state() == HandOver.State.PARKED) {
                parked++;
            } else if (waiter.state() == HandOver.State.CLAIMED) {
                claimed++;
            }
        }
        return new SleepingWaiters(parked, claimed + othersAsleep);
    }

    /**
     * Waits, through interrupts and {@code close()}, until the claiming thread settles {@code me};
     * a settle that never comes within the longest round trip counts as fallen through, and the
     * waiter asks Redis (where it finds the lock if it was passed after all).
     */
    private void awaitSettle(HandOver me) {
        long deadline = System.nanoTime() + claimPatienceNanos;
        boolean interrupted = false;
        while (me.state() == HandOver.State.CLAIMED) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                me.fellThrough(me.claimedAt(), true);
                line.addFirst(me);
                break;
            }
            try {
                me.signal().awaitNanos(left);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
