package dev.locksmith.internal.lease;

import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.LockException;
import dev.locksmith.internal.store.LockStore;
import dev.locksmith.internal.store.RedisReplies;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Owns every hold of one manager for its whole life: records it once Redis granted it, renews
 * the watchdog-kept ones in batches every third of the lease, confirms and extends holds before
 * a transaction commits, marks a hold lost when Redis no longer has it or could not confirm it
 * for a whole lease, and releases whatever is still held when the manager closes.
 *
 * <p>Time and threads come from outside: the clock that stamps confirmations and the scheduler
 * that runs the ticks are constructor arguments, so tests drive both.
 */
public final class LeaseKeeper implements AutoCloseable {
    private static final Logger LOG = System.getLogger(LeaseKeeper.class.getName());

    private final HoldTable holds = new HoldTable();
    private final Set<Hold> renewed = ConcurrentHashMap.newKeySet();
    private final LockStore store;
    private final RedisReplies replies;
    private final LockObserver observer;
    private final LongSupplier nanoClock;
    private final long watchdogLeaseMillis;
    private final ScheduledExecutorService scheduler;
    private final ScheduledFuture<?> ticks;
    private final AtomicLong lostCount = new AtomicLong();
    private volatile boolean closed;

    /**
     * Starts ticking at once.
     *
     * @param store         where the holds live
     * @param replies       how to wait for an answer before a commit
     * @param scheduler     runs the ticks; never shut down here (it may be the container's)
     * @param nanoClock     the clock of confirmations, in nanoseconds ({@code System::nanoTime})
     * @param watchdogLease the lease the watchdog keeps extending; a tick runs every third of it
     * @param observer      told of renewals, failed renewals, losses and the end of every hold
     */
    public LeaseKeeper(LockStore store, RedisReplies replies, ScheduledExecutorService scheduler, LongSupplier nanoClock,
                       Duration watchdogLease, LockObserver observer) {
        this.store = store;
        this.replies = replies;
        this.observer = observer;
        this.nanoClock = nanoClock;
        this.watchdogLeaseMillis = watchdogLease.toMillis();
        long period = Math.max(1, watchdogLeaseMillis / 3);
        this.scheduler = scheduler;
        this.ticks = scheduler.scheduleAtFixedRate(this::tick, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * @return now on the clock that stamps confirmations: record it before sending an acquisition
     */
    public long now() {
        return nanoClock.getAsLong();
    }

    /**
     * @return the watchdog's lease in milliseconds
     */
    public long watchdogLeaseMillis() {
        return watchdogLeaseMillis;
    }

    /**
     * Records a hold Redis granted; from now on its watchdog lease, if it has one, is renewed.
     *
     * @param hold the new hold
     * @return false when the keeper is closed: the caller must give the hold back itself
     */
    public boolean granted(Hold hold) {
        holds.put(hold);
        if (closed) {
            // close() may or may not have seen it; the caller's own release makes sure.
            holds.remove(hold);
            return false;
        }
        if (hold.watchdog()) {
            renewed.add(hold);
        }
        return true;
    }

    /**
     * @return the hold of the lock at {@code lock} whose field (its owner, or its read/write hold
     *         field) is {@code field}, or null
     */
    public Hold find(String lock, String field) {
        return holds.get(lock, field);
    }

    /**
     * @return a hold of this manager on the lock at {@code lock}, whichever owner has it, or null
     */
    public Hold anyHoldOf(String lock) {
        return holds.anyOf(lock);
    }

    /**
     * Says that the final release of {@code hold} is about to be sent. From now on the watchdog no
     * longer renews it, whatever the answer: a release that fails or gets no answer leaves the
     * lock to its lease, which then runs out. A renewal answered later does not take the release
     * for a loss.
     */
    public void releasing(Hold hold) {
        hold.releasing();
        renewed.remove(hold);
    }

    /**
     * Drops a hold that was released, or whose loss its holder has been told of.
     */
    public void forget(Hold hold) {
        renewed.remove(hold);
        holds.remove(hold);
        hold.observeEnd();
    }

    /**
     * @return how many holds this manager has now
     */
    public int heldCount() {
        return holds.size();
    }

    /**
     * @return how many holds were found lost since this keeper started
     */
    public long lostCount() {
        return lostCount.get();
    }

    /**
     * @return how many of them the watchdog renews
     */
    public int renewedCount() {
        return renewed.size();
    }

    /**
     * Checks that Redis still has every given hold and extends each one's lease by its own lease
     * time, in one round trip: the calls for every server (or slot) and lease are all sent before
     * any answer is awaited. A hold Redis no longer has is marked lost and no longer renewed. The
     * transaction support calls this before commit.
     *
     * @param toConfirm holds of this manager, from any thread
     * @return the holds that are lost, empty when all are still held
     * @throws LockException if Redis cannot be reached; no hold is marked lost then
     */
    public List<Hold> confirmAndExtend(Collection<Hold> toConfirm) {
        List<Hold> lost = new ArrayList<>();
        List<Hold> alive = new ArrayList<>();
        for (Hold hold : toConfirm) {
            if (!hold.confirmation().isDone()) {
                replies.await(hold.confirmation(), "Confirming the grant of the " + hold.description());
            }
            (hold.isLost() ? lost : alive).add(hold);
        }
        long sentAt = now();
        Map<List<Hold>, CompletionStage<List<Long>>> answers = new LinkedHashMap<>();
        for (List<Hold> batch : RenewalBatches.of(alive, store::partitionOf)) {
            answers.put(batch, store.renew(HoldCalls.renewal(batch, batch.get(0).leaseMillis())));
        }
        for (Map.Entry<List<Hold>, CompletionStage<List<Long>>> answer : answers.entrySet()) {
            List<Hold> batch = answer.getKey();
            List<Long> confirmed = replies.await(answer.getValue(), "Confirming " + batch.size() + " held lock(s)");
            lost.addAll(apply(batch, confirmed, sentAt));
        }
        return lost;
    }

    private void tick() {
        try {
            // A grant still being confirmed is renewed by its confirmation: a renewal could overtake it.
            List<Hold> due = renewed.stream().filter(hold -> hold.confirmation().isDone()).toList();
            if (due.isEmpty()) {
                return;
            }
            long sentAt = now();
            for (List<Hold> batch : RenewalBatches.of(due, store::partitionOf)) {
                store.renew(HoldCalls.renewal(batch, watchdogLeaseMillis)).whenComplete((confirmed, failure) -> {
                    if (failure == null) {
                        apply(batch, confirmed, sentAt);
                    } else {
                        unconfirmed(batch, failure);
                    }
                });
            }
        } catch (RuntimeException e) {
            // A thrown exception would cancel the periodic task, and with it every future renewal.
            LOG.log(Level.WARNING, "Lease renewal could not be sent; retrying on the next tick", e);
        }
    }

    /**
     * @return the holds of the batch that Redis no longer has
     */
    private List<Hold> apply(List<Hold> batch, List<Long> confirmed, long sentAt) {
        List<Hold> lost = new ArrayList<>();
        int renewedHolds = 0;
        for (int i = 0; i < batch.size(); i++) {
            Hold hold = batch.get(i);
            if (confirmed.get(i) == 1L) {
                hold.confirmedAt(sentAt);
                renewedHolds++;
            } else if (!hold.isReleasing()) {
                lose(hold, "Redis no longer has it (its lease expired or it was force-unlocked)", null);
                lost.add(hold);
            }
        }
        observer.renewed(renewedHolds);
        return lost;
    }

    private void unconfirmed(List<Hold> batch, Throwable failure) {
        long now = now();
        long lease = TimeUnit.MILLISECONDS.toNanos(watchdogLeaseMillis);
        for (Hold hold : batch) {
            if (now - hold.lastConfirmedNanos() >= lease && !hold.isReleasing()) {
                lose(hold, "its lease could not be renewed for a whole lease", failure);
            }
        }
        observer.renewalFailed(batch.size());
        LOG.log(Level.WARNING, "Renewing " + batch.size() + " lease(s) failed; retrying on the next tick: " + failure);
    }

    /**
     * Redis confirmed a grant that a thread held on its word ({@code take-grant}): it holds for a
     * whole lease from {@code sentAtNanos}.
     */
    public void grantConfirmed(Hold hold, long sentAtNanos) {
        hold.confirmedAt(sentAtNanos);
    }

    /**
     * Redis did not confirm a grant that a thread held on its word: the hold is lost, as one whose
     * lease ran out.
     *
     * A hold whose release was sent meanwhile is left to that release: it went out behind the
     * confirmation, Redis takes it from the grantee whether the confirmation ran or not, and its
     * answer says whether the hold was lost.
     *
     * @param failure why no answer came, or null when Redis answered that the grant was gone
     * @return whether the hold was lost here: false when its release answers for it
     */
    public boolean grantRefused(Hold hold, String why, Throwable failure) {
        if (hold.isReleasing()) {
            return false;
        }
        lose(hold, why, failure);
        return true;
    }

    private void lose(Hold hold, String why, Throwable failure) {
        if (renewed.remove(hold) || !hold.isLost()) {
            hold.markLost();
            hold.observeLoss();
            lostCount.incrementAndGet();
            LOG.log(Level.WARNING, "Lost the " + hold + ": " + why, failure);
        }
    }

    /**
     * Stops ticking and releases every hold still recorded; a hold Redis cannot be asked to drop
     * expires with its lease. The scheduler itself is left running.
     */
    @Override
    public void close() {
        ticks.cancel(false);
        ScheduledTasks.purge(scheduler); // a container's scheduler outlives the manager: leave no task queued
        closed = true;
        List<Hold> left = holds.all();
        renewed.clear();
        new ReleaseAtClose(store, replies, holds).release(left);
    }
}
