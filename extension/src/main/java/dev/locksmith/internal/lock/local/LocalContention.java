package dev.locksmith.internal.lock.local;

import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.lock.ring.OfferDesk;
import dev.locksmith.internal.lock.ring.ProcessRing;
import dev.locksmith.internal.redis.ReleaseChannels;
import dev.locksmith.internal.wire.OfferMessage;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The threads of this process that want one lock (one release channel), and what wakes them,
 * under one mutex that its parts share: the line of waiters with their hand-overs
 * ({@link WaiterLine}), where only the first asks Redis, with each side's calls: the waiting
 * threads' ({@link LineWaits}) and the releasing thread's ({@link LineHandOvers}); the wake-ups that readers wait on
 * ({@link WakeUps}); the fair queue's waiters, woken by name ({@link QueueTurns}); this process's
 * seat in the ring of waiting processes ({@code ProcessRing}), with the offers that the pub/sub
 * thread takes for the first waiter ({@link OfferTaking}); and the subscriptions.
 *
 * <p>A last release in this process may hand the lock straight to a sleeping waiter of the line
 * ({@link LineHandOvers}); at most
 * {@link WaiterLine#HAND_OVERS_IN_A_ROW} hand-overs follow each other, then a release goes
 * through Redis, which offers the lock to the next process of the ring first if one waits. An
 * offer that no thread here wants is passed on at once ({@code OfferDesk#decline}).
 *
 * <p>Threads: waiting threads join, park and leave; a releasing thread of this process claims
 * and settles; the Redis pub/sub thread calls {@link #wake(String)}; the closing thread calls
 * {@link #wakeAll()}; any thread may count the sleeping waiters ({@link #sleepingWaiters()}).
 * Every wait here ends by its deadline, an interrupt (where the caller's {@link Waiting} allows),
 * or {@code close()}. The lock order is the package's ({@code package-info}).
 */
public final class LocalContention {
    private final LockKeys keys;
    private final ManagerState state;
    private final LongSupplier clock;
    private final ReentrantLock mutex = new ReentrantLock();
    private final WaiterLine line;
    private final WakeUps wakeUps = new WakeUps(mutex);
    private final QueueTurns queueTurns = new QueueTurns(mutex);
    private final ProcessRing ring;
    private final OfferTaking offers;
    private final LineHandOvers handOvers;
    private final LineWaits waits;
    private final LockSubscriptions subscriptions;
    int users; // guarded by the ContentionRegistry's changes
    long idleSince; // guarded by the ContentionRegistry's changes
    boolean lingerEndScheduled; // guarded by the ContentionRegistry's changes

    /**
     * @param claimPatienceNanos the longest a releasing thread may take to settle a claimed
     *                           waiter: the longest a round trip can last
     * @param clock              the lease keeper's clock, in nanoseconds
     * @param holdsLock          whether a thread of this process holds the lock at a key, by the lease
     *                           keeper's records: such a process trusts no grant of it
     */
    public LocalContention(LockKeys keys, ManagerState state, long claimPatienceNanos, LongSupplier clock,
                           OfferDesk desk, String managerId, Predicate<String> holdsLock) {
        this.keys = keys;
        this.state = state;
        this.clock = clock;
        this.line = new WaiterLine(mutex, claimPatienceNanos);
        this.ring = new ProcessRing(mutex, keys, desk, managerId);
        this.offers = new OfferTaking(mutex, line, wakeUps, ring, state, clock, keys, holdsLock);
        this.handOvers = new LineHandOvers(mutex, line, state, clock);
        this.waits = new LineWaits(mutex, line, wakeUps, state, ring);
        this.subscriptions = new LockSubscriptions(mutex, keys, managerId, this::wake, ring);
    }

    public String channel() {
        return keys.channel();
    }

    public LockKeys keys() {
        return keys;
    }

    /**
     * @return the waiting thread's side of the line: join, await a turn or a wake-up, leave
     */
    public LineWaits waits() {
        return waits;
    }

    /**
     * @return the releasing thread's side of the line's hand-overs
     */
    public LineHandOvers handOvers() {
        return handOvers;
    }

    /**
     * @return the wake-ups the waiters heard, which readers sleep on
     */
    public WakeUps wakeUps() {
        return wakeUps;
    }

    /**
     * A message from Redis.
     *
     * @param message {@code *} for everyone, an offer of the lock to this process
     *                ({@code OfferMessage}), or the owner id whose turn it is in the fair queue
     */
    public void wake(String message) {
        if (OfferMessage.isOffer(message)) {
            offers.take(message);
            return;
        }
        mutex.lock();
        try {
            wakeUps.heard();
            if (ReleaseChannels.EVERYONE.equals(message)) {
                ring.askAgain();
            }
            queueTurns.heard(message);
            line.signalFirst();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * A release in this process, of any kind of lock on this channel: the line and the readers ask
     * Redis again; fair waiters do not, as Redis wakes the head of their queue by name.
     */
    public void wakeLine() {
        mutex.lock();
        try {
            wakeUps.heard();
            line.signalFirst();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Wakes every waiter, each of which then sees why (the manager closed).
     */
    public void wakeAll() {
        mutex.lock();
        try {
            wakeUps.heard();
            queueTurns.wakeEveryone();
            line.signalEveryone();
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
    public SleepingWaiters sleepingWaiters() {
        mutex.lock();
        try {
            return line.sleeping(wakeUps.readersAsleep() + queueTurns.asleep());
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return the fair lock's waiters here, woken by name
     */
    public QueueTurns queueTurns() {
        return queueTurns;
    }

    /**
     * @return the subscriptions by which this process hears of the lock
     */
    public LockSubscriptions subscriptions() {
        return subscriptions;
    }

    /**
     * @return whether Redis confirmed that this process listens, on the lock's channel and its own
     */
    public boolean isListening() {
        return subscriptions.isListening();
    }

    /**
     * @return this process's place in the lock's ring of waiting processes
     */
    public ProcessRing ring() {
        return ring;
    }
}
