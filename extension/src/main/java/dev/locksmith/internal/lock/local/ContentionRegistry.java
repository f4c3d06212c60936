package dev.locksmith.internal.lock.local;

import dev.locksmith.internal.lease.ScheduledTasks;
import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.lock.ring.OfferDesk;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The {@link LocalContention} of every lock some thread here is acquiring now, or acquired a
 * moment ago, by release channel. An entry and its pub/sub subscriptions live while some thread
 * is in an acquisition, and {@link #LINGER_MILLIS} longer: threads that take a lock often come
 * back soon, and meanwhile their process stays in the lock's ring of waiting processes without
 * subscribing again.
 */
public final class ContentionRegistry {
    /** How long an entry outlives its last acquisition. */
    static final long LINGER_MILLIS = 2_000;
    private static final Logger LOG = System.getLogger(ContentionRegistry.class.getName());

    private final Map<String, LocalContention> byChannel = new ConcurrentHashMap<>();
    // Every change of the map goes through this lock, so the map's own monitors are never contended:
    // a virtual thread that met another inside ConcurrentHashMap.compute waited on a bin's monitor
    // where the JDK could not unmount it (jdk.VirtualThreadPinned, "Contended monitor enter", seen by
    // VirtualThreadLockingTest), while on this lock it parks. Reads need neither.
    private final ReentrantLock changes = new ReentrantLock();
    private final ManagerState state;
    private final long claimPatienceNanos;
    private final LongSupplier clock;
    private final OfferDesk desk;
    private final String managerId;
    private final ScheduledTasks tasks;
    private final Predicate<String> holdsLock;
    private final List<Ended> ended = new CopyOnWriteArrayList<>(); // entries ended while closing

    /**
     * @param state              whether the manager is open: waits end when it closes
     * @param claimPatienceNanos the longest a round trip can last: how long a waiter a release
     *                           claimed waits for that release's answer
     * @param clock              the lease keeper's clock, in nanoseconds
     * @param desk               passes on offers nobody here takes
     * @param managerId          this manager's id, which names its own channels
     * @param tasks              ends the entries that lingered long enough, on the manager's
     *                           scheduler; shared with the desk, and cancelled by {@link #closeAll}
     */
    public ContentionRegistry(ManagerState state, long claimPatienceNanos, LongSupplier clock, OfferDesk desk,
                       String managerId, ScheduledTasks tasks, Predicate<String> holdsLock) {
        this.holdsLock = holdsLock;
        this.state = state;
        this.claimPatienceNanos = claimPatienceNanos;
        this.clock = clock;
        this.desk = desk;
        this.managerId = managerId;
        this.tasks = tasks;
    }

    public LocalContention enter(LockKeys keys) {
        return changing(() -> byChannel.compute(keys.channel(), (key, existing) -> {
            LocalContention contention = existing == null
                    ? new LocalContention(keys, state, claimPatienceNanos, clock, desk, managerId, holdsLock) : existing;
            contention.users++;
            return contention;
        }));
    }

    public void leave(LocalContention contention) {
        changing(() -> byChannel.computeIfPresent(contention.channel(), (key, existing) -> {
            if (--existing.users > 0) {
                return existing;
            }
            // Idle since before the end is scheduled: the scheduler runs it no earlier than its
            // delay after scheduling, so it never finds the entry idle a hair less than the delay
            // and keeps it for good (a subscription left behind, seen once in a full build).
            long idleSince = clock.getAsLong();
            if (existing.isListening() && state.isOpen() && lingerEndsLater(existing)) {
                existing.idleSince = idleSince;
                return existing;
            }
            existing.ring().declineHeardOffer();
            CompletionStage<Void> stopped = existing.subscriptions().stop();
            if (!state.isOpen()) {
                ended.add(new Ended(existing.keys(), stopped.toCompletableFuture()));
            }
            return null;
        }));
    }

    private <T> T changing(Supplier<T> change) {
        changes.lock();
        try {
            return change.get();
        } finally {
            changes.unlock();
        }
    }

    /**
     * Makes sure an end of the entry's linger is scheduled: one at a time per entry, however often
     * its last user leaves, since a busy lock's threads leave on every cycle.
     */
    private boolean lingerEndsLater(LocalContention contention) {
        return contention.lingerEndScheduled || scheduleEnd(contention, TimeUnit.MILLISECONDS.toNanos(LINGER_MILLIS));
    }

    private boolean scheduleEnd(LocalContention contention, long delayNanos) {
        try {
            tasks.schedule(() -> endLinger(contention), delayNanos);
            contention.lingerEndScheduled = true;
            return true;
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "Not keeping the subscription of " + contention.channel() + ": " + e);
            contention.lingerEndScheduled = false;
            return false;
        }
    }

    private void endLinger(LocalContention contention) {
        long idleAtLeast = TimeUnit.MILLISECONDS.toNanos(LINGER_MILLIS);
        changing(() -> byChannel.computeIfPresent(contention.channel(), (key, existing) -> {
            if (existing != contention) {
                return existing; // ended already and made anew: the new entry schedules its own end
            }
            existing.lingerEndScheduled = false;
            if (existing.users > 0) {
                return existing; // in use again; its next last leave schedules the next end
            }
            long idleFor = clock.getAsLong() - existing.idleSince;
            if (idleFor < idleAtLeast && state.isOpen() && scheduleEnd(existing, idleAtLeast - idleFor)) {
                return existing; // used meanwhile: idle since its latest leave, the end comes that much later
            }
            existing.ring().declineHeardOffer();
            existing.subscriptions().stop();
            return null;
        }));
    }

    /**
     * @return the threads acquiring the lock with this release channel now, or a moment ago; null
     *         when none
     */
    public LocalContention contending(String channel) {
        return byChannel.get(channel);
    }

    /**
     * @return the threads of this manager asleep waiting for the lock with this release channel;
     *         {@link SleepingWaiters#NONE} when no thread acquires it
     */
    public SleepingWaiters sleepingWaiters(String channel) {
        LocalContention contention = byChannel.get(channel);
        return contention == null ? SleepingWaiters.NONE : contention.sleepingWaiters();
    }

    /**
     * @return the threads of this manager asleep waiting for any lock now
     */
    public SleepingWaiters sleepingWaiters() {
        SleepingWaiters all = SleepingWaiters.NONE;
        for (LocalContention contention : byChannel.values()) {
            all = all.plus(contention.sleepingWaiters());
        }
        return all;
    }

    /**
     * Wakes the local waiters of a lock released here (of any kind): they need not wait for a
     * release message from Redis, which a release publishes only to waiters that asked for one.
     */
    public void wakeLine(String channel) {
        LocalContention contention = byChannel.get(channel);
        if (contention != null) {
            contention.wakeLine();
        }
    }

    /**
     * Watches the offer a release here made (see {@link OfferDesk#watch}).
     */
    public void watchOffer(LockKeys keys, long token) {
        LocalContention releaser = byChannel.get(keys.channel());
        desk.watch(keys, releaser == null ? null : releaser.ring(), token, 0);
    }

    /**
     * Wakes every waiter of every lock; each then sees that the manager closed.
     */
    public void wakeAll() {
        byChannel.values().forEach(LocalContention::wakeAll);
    }

    /**
     * Ends every entry at close, once the calls under way ended: offers this process heard and did
     * not take are passed on, the subscriptions end, and then every offer a release here made and
     * still watches is withdrawn (no check of this process will watch it later), and every
     * offer of these locks to a process that no longer listens (this one, or one that closed or
     * died meanwhile) too, so that a closed manager leaves no offer standing in Redis. Last, every
     * task this manager scheduled is cancelled.
     *
     * @param patienceNanos how long to wait for Redis's confirmations, at most
     */
    public void closeAll(long patienceNanos) {
        List<Ended> known = new ArrayList<>(ended);
        for (String channel : byChannel.keySet()) {
            changing(() -> byChannel.computeIfPresent(channel, (key, existing) -> {
                existing.ring().declineHeardOffer();
                known.add(new Ended(existing.keys(), existing.subscriptions().stop().toCompletableFuture()));
                return null;
            }));
        }
        List<CompletableFuture<Void>> unsubscribed = known.stream().map(Ended::unsubscribed).toList();
        long deadline = System.nanoTime() + patienceNanos;
        try {
            CompletableFuture.allOf(unsubscribed.toArray(CompletableFuture[]::new))
                    .get(patienceNanos, TimeUnit.NANOSECONDS);
            List<CompletableFuture<Long>> reaped = new ArrayList<>(desk.withdrawAllAtClose());
            for (Ended entry : known) {
                reaped.add(desk.reap(entry.keys()).toCompletableFuture());
            }
            CompletableFuture.allOf(reaped.toArray(CompletableFuture[]::new))
                    .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.log(Level.WARNING, "Closing: could not make sure that no lock stays offered to a process that closed;"
                    + " such an offer lapses within one lease: " + e);
        } finally {
            tasks.cancelAll();
        }
    }

    /** An entry ended while the manager closed, and when Redis confirmed that it stopped listening. */
    private record Ended(LockKeys keys, CompletableFuture<Void> unsubscribed) {
    }

    /**
     * @return how many lock names some thread of this manager is acquiring now
     */
    public int size() {
        return (int) byChannel.values().stream().filter(contention -> contention.users > 0).count();
    }
}
