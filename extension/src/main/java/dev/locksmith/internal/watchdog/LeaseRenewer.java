package dev.locksmith.internal.watchdog;

import dev.locksmith.internal.lock.Hold;
import dev.locksmith.internal.lock.LockStore;
import dev.locksmith.internal.lock.RenewalCall;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Renews, in one round trip per server and tick, the lease of every lock this process holds
 * with a watchdog. Ticks every third of the lease; stops renewing a hold the moment it is
 * released, and marks it lost when Redis no longer has it or could not confirm it for a whole
 * lease. Never blocks the scheduler's thread: each tick only sends commands.
 */
public final class LeaseRenewer implements AutoCloseable {
    private static final Logger LOG = System.getLogger(LeaseRenewer.class.getName());
    private static final int MAX_KEYS_PER_CALL = 256;

    private final Set<Hold> tracked = ConcurrentHashMap.newKeySet();
    private final LockStore store;
    private final long leaseMillis;
    private final ScheduledFuture<?> ticks;
    private volatile boolean paused;

    /**
     * @param scheduler      runs the ticks; the renewer cancels its own task on close and never
     *                       shuts the scheduler down (it may be the container's)
     * @param lease          the watchdog lease
     * @param store          where the held locks live
     */
    public LeaseRenewer(ScheduledExecutorService scheduler, Duration lease, LockStore store) {
        this.store = store;
        this.leaseMillis = lease.toMillis();
        long period = Math.max(1, leaseMillis / 3);
        this.ticks = scheduler.scheduleAtFixedRate(this::tick, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * @param hold a hold whose lease this renewer must keep from now on
     */
    public void track(Hold hold) {
        tracked.add(hold);
    }

    /**
     * @param hold a hold released or lost; its lease is not renewed again
     */
    public void untrack(Hold hold) {
        tracked.remove(hold);
    }

    /**
     * @return how many holds are renewed now
     */
    public int trackedCount() {
        return tracked.size();
    }

    /**
     * Stops or restarts renewals without forgetting the holds; for tests of lost leases.
     *
     * @param paused true to skip ticks
     */
    public void setPaused(boolean paused) {
        this.paused = paused;
    }

    /**
     * Renews every tracked lease now.
     *
     * @return completes when Redis has answered every renewal
     */
    public CompletableFuture<Void> renewNow() {
        if (tracked.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        long sentAt = System.nanoTime();
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (List<Hold> batch : batches(List.copyOf(tracked))) {
            calls.add(renew(batch, sentAt));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
    }

    private void tick() {
        if (paused) {
            return;
        }
        try {
            renewNow();
        } catch (RuntimeException e) {
            // A thrown exception would cancel the periodic task, and with it every future renewal.
            LOG.log(Level.WARNING, "Lease renewal could not be sent; retrying on the next tick", e);
        }
    }

    private List<List<Hold>> batches(List<Hold> holds) {
        Map<Integer, List<Hold>> byPartition = new LinkedHashMap<>();
        for (Hold hold : holds) {
            byPartition.computeIfAbsent(store.partitionOf(hold.keys().hash()), p -> new ArrayList<>()).add(hold);
        }
        List<List<Hold>> batches = new ArrayList<>();
        for (List<Hold> partition : byPartition.values()) {
            for (int from = 0; from < partition.size(); from += MAX_KEYS_PER_CALL) {
                batches.add(partition.subList(from, Math.min(partition.size(), from + MAX_KEYS_PER_CALL)));
            }
        }
        return batches;
    }

    private CompletableFuture<Void> renew(List<Hold> batch, long sentAt) {
        return store.renew(RenewalCall.of(batch, leaseMillis))
                .handle((renewed, failure) -> {
                    if (failure != null) {
                        onUnreachable(batch, failure);
                    } else {
                        onAnswer(batch, renewed, sentAt);
                    }
                    return (Void) null;
                })
                .toCompletableFuture();
    }

    private void onAnswer(List<Hold> batch, List<Long> renewed, long sentAt) {
        for (int i = 0; i < batch.size(); i++) {
            Hold hold = batch.get(i);
            if (renewed.get(i) == 1L) {
                hold.confirmedAt(sentAt);
            } else if (tracked.remove(hold)) {
                hold.markLost();
                LOG.log(Level.WARNING, "Lost the " + hold + ": Redis no longer has it (lease expired or force-unlocked)");
            }
        }
    }

    private void onUnreachable(List<Hold> batch, Throwable failure) {
        long now = System.nanoTime();
        for (Hold hold : batch) {
            if (now - hold.lastConfirmedNanos() >= TimeUnit.MILLISECONDS.toNanos(leaseMillis) && tracked.remove(hold)) {
                hold.markLost();
                LOG.log(Level.WARNING, "Lost the " + hold + ": its lease could not be renewed for a whole lease", failure);
            }
        }
        LOG.log(Level.WARNING, "Renewing " + batch.size() + " lease(s) failed; retrying on the next tick: " + failure);
    }

    /**
     * Stops ticking. The scheduler itself is left running.
     */
    @Override
    public void close() {
        ticks.cancel(false);
        tracked.clear();
    }
}
