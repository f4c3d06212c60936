package dev.locksmith.internal.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedReadWriteLock;
import dev.locksmith.internal.config.LockSettings;
import dev.locksmith.internal.lease.LeaseKeeper;
import dev.locksmith.internal.lease.ScheduledTasks;
import dev.locksmith.internal.lock.kind.ExclusiveKind;
import dev.locksmith.internal.lock.kind.FairKind;
import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.lock.kind.LockNames;
import dev.locksmith.internal.lock.local.ContentionRegistry;
import dev.locksmith.internal.lock.local.HandOver;
import dev.locksmith.internal.lock.local.LocalContention;
import dev.locksmith.internal.lock.local.ManagerState;
import dev.locksmith.internal.lock.local.SleepingWaiters;
import dev.locksmith.internal.lock.ring.OfferAttempt;
import dev.locksmith.internal.lock.ring.OfferDesk;
import dev.locksmith.internal.observe.LockLabels;
import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.internal.store.LockStore;
import dev.locksmith.internal.store.RedisReplies;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The locks of one manager: what the manager hands out, and the barrier its {@code close()}
 * passes before the lease keeper releases what is still held.
 *
 * <p>Which thread runs what: a lock's caller runs its acquisitions, waits and releases (a
 * transaction's completion thread runs the releases it deferred); a release may hand the lock to
 * another waiting thread of this manager ({@link HandOver}); Redis's reply thread only completes
 * answers; the pub/sub thread wakes waiters ({@link LocalContention#wake}) and, for an offer to
 * this process, sends the attempt of the waiter it claims ({@link OfferAttempt}) or the offer's
 * pass-on ({@link OfferDesk#decline}), without waiting for either; the watchdog's scheduler renews
 * leases, refreshes the manager's description and sends the pass-on of offers made here that were
 * not taken ({@link OfferDesk}); the closing thread withdraws the offers this process still watches,
 * cancels what it scheduled, and closes.
 */
public final class LockEngine {
    private static final Logger LOG = System.getLogger(LockEngine.class.getName());

    private final LockContext context;
    private final long closePatienceNanos;

    /**
     * @param settings the manager's settings
     * @param store    where the locks live
     * @param replies  how to wait for Redis's answers
     * @param leases   the manager's holds
     * @param observer told of waits, holds, hand-overs and failures
     * @param labels    how locks are named in metrics and spans
     * @param scheduler the watchdog's scheduler, which also ends lingering subscriptions and
     *                  watches offers made to other processes
     */
    public LockEngine(LockSettings settings, LockStore store, RedisReplies replies, LeaseKeeper leases,
                      LockObserver observer, LockLabels labels, ScheduledExecutorService scheduler) {
        ManagerState state = new ManagerState();
        // A waiter a release claimed waits at most one round trip for that release's answer; a
        // call under way ends within that plus its own round trip.
        long roundTrip = replies.longestWaitNanos();
        this.closePatienceNanos = 2 * roundTrip;
        OwnerIds owners = new OwnerIds();
        ScheduledTasks tasks = new ScheduledTasks(scheduler);
        OfferDesk offers = new OfferDesk(store, tasks, settings.commandTimeout().toMillis(),
                settings.lease().toMillis(), settings.fenceLifetime().toMillis());
        this.context = new LockContext(settings, store, replies, leases,
                new ContentionRegistry(state, roundTrip, leases::now, offers, owners.managerId(), tasks,
                        lock -> leases.anyHoldOf(lock) != null), owners,
                state, observer, labels, ProcessDescription.of(settings.telemetry().applicationName()));
    }

    /**
     * @return this manager's id, the first part of each of its owner ids
     */
    public String managerId() {
        return context.owners().managerId();
    }

    /**
     * @throws IllegalStateException if the manager is closed
     */
    public void checkOpen() {
        context.state().checkOpen();
    }

    /**
     * @return the reentrant lock of that name
     */
    public DistributedLock lock(String name) {
        checkOpen();
        return new RedisLock(name, ExclusiveKind.INSTANCE, context);
    }

    /**
     * @return the fair lock of that name
     */
    public DistributedLock fairLock(String name) {
        checkOpen();
        return new RedisLock(name, FairKind.INSTANCE, context);
    }

    /**
     * @return the read/write lock of that name
     */
    public DistributedReadWriteLock readWriteLock(String name) {
        checkOpen();
        return new RedisReadWriteLock(name, context);
    }

    /**
     * @param locks the locks to take as one, or null
     * @return the multi-lock over them
     */
    public DistributedLock multiLock(List<DistributedLock> locks) {
        checkOpen();
        return new MultiLock(locks);
    }

    /**
     * @return how many lock names some thread of this manager is acquiring now
     */
    public int contendedNames() {
        return context.contention().size();
    }

    /**
     * @return how many threads of this manager sleep now waiting for a lock, whatever its name
     */
    public SleepingWaiters sleepingWaiters() {
        return context.contention().sleepingWaiters();
    }

    /**
     * Reads how many threads of this manager sleep now waiting for a lock of this name, of any
     * kind (the reentrant and fair lock, and the read/write lock of the same name): for an operator
     * asking why a lock seems stuck, and for a test that must know a waiter went to sleep.
     *
     * @param name a lock name
     * @return the sleeping threads, in the local line (where a release here may hand them the
     *         lock) and outside it
     * @throws IllegalArgumentException if the name is not a valid lock name
     */
    public SleepingWaiters sleepingWaiters(String name) {
        LockKeys keys = LockKeys.of(context.settings().keyPrefix(), LockNames.require(name));
        return context.contention().sleepingWaiters(keys.channel())
                .plus(context.contention().sleepingWaiters(keys.readWrite().channel()));
    }

    /**
     * Refuses every acquisition and release from now on, wakes every waiter (each fails with
     * {@link IllegalStateException}), and waits until the calls under way ended: then whatever
     * they were granted is known to the lease keeper. A call that does not end within two round
     * trips is named in the log and not waited for.
     *
     * @return false when the engine was closed before
     */
    public boolean close() {
        if (!context.state().close()) {
            return false;
        }
        context.contention().wakeAll();
        int running = context.state().awaitIdle(closePatienceNanos);
        context.contention().closeAll(closePatienceNanos);
        if (running > 0) {
            LOG.log(Level.WARNING, running + " lock call(s) were still under way "
                    + Duration.ofNanos(closePatienceNanos).toMillis() + " ms after close() began; closing anyway."
                    + " What they acquire expires with its lease");
        }
        return true;
    }
}
