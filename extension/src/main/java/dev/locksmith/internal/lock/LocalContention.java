package dev.locksmith.internal.lock;

import dev.locksmith.internal.redis.ReleaseChannels;
import dev.locksmith.internal.wire.OfferMessage;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The threads of this process that want one lock (one release channel), and what wakes them.
 * Each {@link WaitStrategy} uses its part: the line ({@link LineWaiting}), where threads wait in
 * arrival order and only the first asks Redis; the plain wake-up count that readers wait on
 * ({@link SoloWaiting}); and the fair queue's waiters, woken by name ({@link QueueTurns}).
 *
 * <p>A last release in this process may hand the lock straight to a sleeping waiter of the line
 * ({@link #claimNext()}, then {@link #handed} or {@link #fellThrough}): the protocol is
 * {@link HandOver}'s, and every transition of it happens here, under one mutex. At most
 * {@link #HAND_OVERS_IN_A_ROW} hand-overs follow each other; then a release goes through Redis,
 * which offers the lock to the next process of the ring first if one waits.
 *
 * <p>Of the reentrant lock, this process may be in the ring of waiting processes ({@link RingSeat}):
 * then its first waiter waits until Redis offers the lock to this process, on the process's own
 * channel, instead of asking. The pub/sub thread that hears the offer claims that waiter if it
 * sleeps, as a release here would, and sends its attempt for it ({@link OfferAttempt}). An offer
 * that no thread here wants is passed on at once ({@link OfferDesk#decline}).
 *
 * <p>Threads: waiting threads join, park and leave; a releasing thread of this process claims
 * and settles; the Redis pub/sub thread calls {@link #wake(String)}, and claims and settles for
 * offers (the settle runs on the thread that completes the attempt); the closing thread calls
 * {@link #wakeAll()}; any thread (an operator's reading, a readiness check) may count the sleeping
 * waiters ({@link #sleepingWaiters()}), which only reads states under the mutex. Every wait here ends by its deadline, an interrupt (where the caller's
 * {@link Waiting} allows), or {@code close()}.
 */
final class LocalContention {
    /** How many times in a row a lock passes between threads of this process without Redis releasing it. */
    static final int HAND_OVERS_IN_A_ROW = 8;
    private static final String EVERYONE = ReleaseChannels.EVERYONE;
    private static final Logger LOG = System.getLogger(LocalContention.class.getName());

    /** What a waiter of the line is to do next. */
    enum Turn {
        /** Ask Redis: it is first in line, or was woken, or its hand-over fell through. */
        ASK,
        /** It holds the lock: a release here handed it over ({@link HandOver#token()}). */
        HANDED,
        /** The deadline passed; it has left the line. */
        TIMED_OUT
    }

    private final LockKeys keys;
    private final ManagerState state;
    private final ProcessRing ring;
    private final LockSubscriptions subscriptions;
    private final long claimPatienceNanos;
    private final LongSupplier clock;
    private final ReentrantLock mutex = new ReentrantLock();
    private final Condition released = mutex.newCondition(); // readers, who wait outside the line
    private final QueueTurns queueTurns = new QueueTurns(mutex);
    private final Deque<HandOver> line = new ArrayDeque<>();
    private final List<HandOver> joined = new ArrayList<>(); // from join to leave: in the line, or claimed out of it
    private long wakeUps;
    private int handedInARow;
    private int handOversUnderWay; // claimed, or settled but not yet collected by their waiter
    private int readersAsleep; // in awaitRelease's wait
    int users; // guarded by the ContentionRegistry's map
    long idleSince; // guarded by the ContentionRegistry's map
    boolean lingerEndScheduled; // guarded by the ContentionRegistry's map

    /**
     * @param claimPatienceNanos the longest a releasing thread may take to settle a claimed
     *                           waiter: the longest a round trip can last
     * @param clock              the lease keeper's clock, in nanoseconds
     */
    LocalContention(LockKeys keys, ManagerState state, long claimPatienceNanos, LongSupplier clock, OfferDesk desk,
                    String managerId) {
        this.keys = keys;
        this.state = state;
        this.claimPatienceNanos = claimPatienceNanos;
        this.clock = clock;
        this.ring = new ProcessRing(mutex, keys, desk, managerId);
        this.subscriptions = new LockSubscriptions(keys, managerId);
    }

    String channel() {
        return keys.channel();
    }

    LockKeys keys() {
        return keys;
    }

    /**
     * @param offerAttempt what the waiter asks Redis when this process is offered the lock, sent
     *                     for it by the pub/sub thread if it sleeps first in line then
     * @return a new waiter at the end of the line
     */
    HandOver join(String owner, long leaseMillis, String threadName, OfferAttempt offerAttempt) {
        mutex.lock();
        try {
            HandOver waiter = new HandOver(owner, leaseMillis, threadName, mutex.newCondition(), offerAttempt);
            line.addLast(waiter);
            joined.add(waiter);
            return waiter;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Waits until {@code me} is first in line with no hand-over to another waiter under way, or a
     * release here handed it the lock, or the deadline.
     *
     * @throws InterruptedException  if {@code waiting} is interruptible and the thread was
     *                               interrupted before a release here claimed it
     * @throws IllegalStateException if the manager closed
     */
    Turn awaitTurn(HandOver me, Deadline deadline, Waiting waiting) throws InterruptedException {
        mutex.lock();
        try {
            while (true) {
                Turn settled = collect(me);
                if (settled != null) {
                    return settled;
                }
                state.checkOpen();
                if (line.peekFirst() == me && handOversUnderWay == 0) {
                    return Turn.ASK;
                }
                long left = deadline.remainingNanos();
                if (left <= 0) {
                    return Turn.TIMED_OUT;
                }
                park(me, left, waiting);
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * The first waiter of the line sleeps until any wake-up came since {@code seen} was read, the
     * timeout, or a release here claims it.
     *
     * @throws IllegalStateException if the manager closed
     */
    Turn awaitWakeUp(HandOver me, long seen, long timeoutNanos, Waiting waiting) throws InterruptedException {
        mutex.lock();
        try {
            long deadline = System.nanoTime() + timeoutNanos;
            while (true) {
                Turn settled = collect(me);
                if (settled != null) {
                    return settled;
                }
                state.checkOpen();
                long left = deadline - System.nanoTime();
                if (wakeUps != seen || left <= 0) {
                    return Turn.ASK;
                }
                park(me, left, waiting);
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Says that a waiter handed the lock ({@link Turn#HANDED}) recorded its hold, or failed to: the
     * next waiter of the line, first now, finds that hold instead of asking Redis.
     */
    void handOverTaken() {
        mutex.lock();
        try {
            handOversUnderWay--;
            signalFirst();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Leaves the line for good; the next waiter becomes first.
     *
     * @return true when a release here handed {@code me} the lock that it did not collect: the
     *         caller must give that hold back
     */
    boolean leave(HandOver me) {
        mutex.lock();
        try {
            if (me.state() == HandOver.State.CLAIMED) {
                awaitSettle(me);
            }
            boolean uncollected = me.state() == HandOver.State.HANDED;
            if (uncollected || me.state() == HandOver.State.FELL_THROUGH) {
                handOversUnderWay--;
                me.moveTo(HandOver.State.WAITING);
            }
            boolean wasFirst = line.peekFirst() == me;
            line.remove(me);
            joined.remove(me);
            if (wasFirst || uncollected) {
                signalFirst();
            }
            if (line.isEmpty()) {
                ring.declineHeardOffer();
            }
            return uncollected;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Claims a sleeping waiter of the line for a hand-over; the caller must settle it with
     * {@link #handed} or {@link #fellThrough}, whatever happens. Called by the thread that
     * releases the lock's last hold here.
     *
     * @return the claimed waiter, or null when none sleeps in the line, the manager is closing,
     *         or the lock was handed over {@link #HAND_OVERS_IN_A_ROW} times in a row (the
     *         release then goes through Redis)
     */
    HandOver claimNext() {
        mutex.lock();
        try {
            if (!state.isOpen()) {
                return null;
            }
            HandOver taker = null;
            for (HandOver waiter : line) {
                if (waiter.state() == HandOver.State.PARKED) {
                    taker = waiter;
                    break;
                }
            }
            if (taker == null || handedInARow >= HAND_OVERS_IN_A_ROW) {
                handedInARow = 0;
                return null;
            }
            handedInARow++;
            line.remove(taker);
            taker.claimed(clock.getAsLong());
            handOversUnderWay++;
            return taker;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Settles a claimed waiter: it holds the lock now.
     *
     * @param token  its fencing token
     * @param sentAt when the hand-over was sent, on the lease keeper's clock
     */
    void handed(HandOver taker, long token, long sentAt) {
        mutex.lock();
        try {
            if (taker.state() == HandOver.State.CLAIMED) {
                taker.handed(token, sentAt);
                taker.signal().signal();
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Settles a claimed waiter whose hand-over did not happen, or whose answer never came: it goes
     * back to the front of the line and asks Redis itself.
     *
     * @param uncertain whether Redis may have passed it the lock all the same
     */
    void fellThrough(HandOver taker, long sentAt, boolean uncertain) {
        mutex.lock();
        try {
            if (taker.state() == HandOver.State.CLAIMED) {
                taker.fellThrough(sentAt, uncertain);
                line.addFirst(taker);
                taker.signal().signal();
            }
        } finally {
            mutex.unlock();
        }
    }

    long wakeUps() {
        mutex.lock();
        try {
            return wakeUps;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * A message from Redis.
     *
     * @param message {@code *} for everyone, an offer of the lock to this process
     *                ({@link OfferMessage}), or the owner id whose turn it is in the fair queue
     */
    void wake(String message) {
        if (OfferMessage.isOffer(message)) {
            takeOffer(message);
            return;
        }
        mutex.lock();
        try {
            wakeUps++;
            if (EVERYONE.equals(message)) {
                ring.askAgain();
            }
            queueTurns.heard(message);
            released.signalAll();
            signalFirst();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * An offer of the lock to this process: when the first waiter of the line sleeps, it is claimed
     * and its attempt sent at once, from this (the pub/sub) thread; its answer settles the claim
     * ({@link #settleOffer}). Otherwise the first waiter is woken to ask.
     */
    private void takeOffer(String message) {
        HandOver taker;
        long heard;
        mutex.lock();
        try {
            ProcessRing.Heard outcome = ring.offered(message, !line.isEmpty() && state.isOpen());
            if (outcome == ProcessRing.Heard.PASSED_ON) {
                return;
            }
            wakeUps++;
            if (outcome == ProcessRing.Heard.UNREADABLE) {
                signalFirst();
                return;
            }
            taker = claimFirstForOffer();
            if (taker == null) {
                signalFirst();
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
                settleOffer(taker, heard, sentAt, null, new IllegalStateException("The offer's attempt failed"));
            }
        }
        answer.whenComplete((reply, failure) -> settleOffer(taker, heard, sentAt, reply, failure));
    }

    private HandOver claimFirstForOffer() {
        HandOver first = line.peekFirst();
        if (first == null || first.offerAttempt() == null || first.state() != HandOver.State.PARKED
                || handOversUnderWay > 0 || !state.isOpen()) {
            return null;
        }
        line.removeFirst();
        first.claimed(clock.getAsLong());
        handOversUnderWay++;
        return first;
    }

    /**
     * Settles a waiter claimed for an offer with its attempt's answer. An attempt that failed
     * leaves the offer heard standing: the waiter asks Redis itself (finding its hold, should
     * Redis have granted it all the same), and if it gives up, the offer is passed on. Whatever
     * this throws, the waiter is settled (in a {@code finally}), never left claimed.
     */
    private void settleOffer(HandOver taker, long heard, long sentAt, List<Long> reply, Throwable failure) {
        mutex.lock();
        try {
            if (failure != null) {
                fellThrough(taker, sentAt, true);
            } else if (reply.get(0) == 1L) {
                ring.attempted(heard, true, false);
                handed(taker, reply.get(1), sentAt);
            } else {
                ring.attempted(heard, false, reply.size() > 2 && reply.get(2) == 1L);
                fellThrough(taker, sentAt, false);
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
            fellThrough(taker, sentAt, true);
            mutex.unlock();
        }
    }

    /**
     * A release in this process, of any kind of lock on this channel: the line and the readers ask
     * Redis again; fair waiters do not, as Redis wakes the head of their queue by name.
     */
    void wakeLine() {
        mutex.lock();
        try {
            wakeUps++;
            released.signalAll();
            signalFirst();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Wakes every waiter, each of which then sees why (the manager closed).
     */
    void wakeAll() {
        mutex.lock();
        try {
            wakeUps++;
            queueTurns.wakeEveryone();
            released.signalAll();
            line.forEach(waiter -> waiter.signal().signal());
        } finally {
            mutex.unlock();
        }
    }

    /**
     * A waiter outside the line (a reader) sleeps until any wake-up came since {@code seen} was
     * read, or the timeout.
     */
    void awaitRelease(long seen, long timeoutNanos, Waiting waiting) throws InterruptedException {
        mutex.lock();
        try {
            long deadline = System.nanoTime() + timeoutNanos;
            long left = timeoutNanos;
            while (wakeUps == seen && left > 0) {
                readersAsleep++;
                try {
                    waiting.await(released, left);
                } finally {
                    readersAsleep--;
                }
                left = deadline - System.nanoTime();
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Counts, under the mutex, the threads asleep waiting for this lock: in the line, those whose
     * hand-over state is {@link HandOver.State#PARKED} (a release here may claim them); outside
     * it, those a hand-over {@link HandOver.State#CLAIMED} and that wait for its answer, the
     * readers and the fair waiters. Each counts only while it gave up the mutex to sleep.
     *
     * @return how many threads sleep now, in the line and outside it
     */
    SleepingWaiters sleepingWaiters() {
        mutex.lock();
        try {
            int parked = 0;
            int claimed = 0;
            for (HandOver waiter : joined) {
                if (waiter.state() == HandOver.State.PARKED) {
                    parked++;
                } else if (waiter.state() == HandOver.State.CLAIMED) {
                    claimed++; // out of the line, asleep until the claiming thread settles it
                }
            }
            return new SleepingWaiters(parked, claimed + readersAsleep + queueTurns.asleep());
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return the fair lock's waiters here, woken by name
     */
    QueueTurns queueTurns() {
        return queueTurns;
    }

    /**
     * @return completes when this process hears releases of the lock, and offers and turns meant
     *         for it alone
     */
    CompletionStage<Void> listen(ReleaseChannels channels) {
        mutex.lock();
        try {
            return subscriptions.listen(channels, this::wake);
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return whether Redis confirmed that this process listens, on the lock's channel and its own
     */
    boolean isListening() {
        return subscriptions.isListening();
    }

    /**
     * @return completes when Redis confirmed that this process no longer listens for this lock
     */
    CompletionStage<Void> stopListening() {
        mutex.lock();
        try {
            ring.leave();
            return subscriptions.stop();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return this process's place in the lock's ring of waiting processes
     */
    ProcessRing ring() {
        return ring;
    }

    /**
     * What a settled hand-over means for its waiter; waits first while a release is settling it.
     *
     * @return HANDED or ASK once the hand-over is settled, null when none was made
     */
    private Turn collect(HandOver me) {
        if (me.state() == HandOver.State.CLAIMED) {
            awaitSettle(me);
        }
        if (me.state() == HandOver.State.HANDED) {
            // The hold is its own now and it is no longer in the line; the hand-over stays under
            // way until it recorded the hold (handOverTaken), so the next waiter sees a local holder.
            me.moveTo(HandOver.State.WAITING);
            return Turn.HANDED;
        }
        if (me.state() == HandOver.State.FELL_THROUGH) {
            handOversUnderWay--;
            me.moveTo(HandOver.State.WAITING);
            return Turn.ASK;
        }
        return null;
    }

    /**
     * Waits, through interrupts and {@code close()}, until the releasing thread settles {@code me};
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

    /**
     * Sleeps where a hand-over can reach {@code me}. Interrupted while a release here is already
     * handing it the lock, it keeps the interrupt status and returns, to take the lock.
     */
    private void park(HandOver me, long nanos, Waiting waiting) throws InterruptedException {
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

    private void signalFirst() {
        HandOver first = line.peekFirst();
        if (first != null) {
            first.signal().signal();
        }
    }
}
