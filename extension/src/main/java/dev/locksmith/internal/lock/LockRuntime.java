package dev.locksmith.internal.lock;

import dev.locksmith.LockException;
import dev.locksmith.RedisMode;
import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.RedisEndpoint;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.watchdog.LeaseRenewer;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What every lock of one {@link dev.locksmith.LockManager} shares: the store the locks live in,
 * the hold table, the local contention and the watchdog.
 */
public final class LockRuntime implements AutoCloseable {
    private static final Logger LOG = System.getLogger(LockRuntime.class.getName());
    private static final LuaScript RELEASE_ALL = LuaScript.load("release-all");

    private final LockSettings settings;
    private final LockStore store;
    private final HoldTable holds = new HoldTable();
    private final ContentionRegistry contention = new ContentionRegistry();
    private final OwnerIds owners = new OwnerIds();
    private final RedisReplies replies;
    private final ScheduledExecutorService privateScheduler;
    private final LeaseRenewer renewer;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Connects to Redis and starts the watchdog.
     *
     * @param settings validated settings
     * @throws LockException if Redis cannot be reached
     */
    public LockRuntime(LockSettings settings) {
        this.settings = settings;
        this.store = settings.mode() == RedisMode.REDLOCK
                ? RedLockStore.connect(settings.uris(), settings.commandTimeout(), settings.lease())
                : new SingleNodeStore(RedisEndpoint.connect(settings.mode(), settings.uris(), settings.commandTimeout()));
        this.replies = new RedisReplies(settings.commandTimeout());
        ScheduledExecutorService scheduler = settings.watchdogScheduler();
        if (scheduler == null) {
            privateScheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "locksmith-watchdog");
                thread.setDaemon(true);
                return thread;
            });
            scheduler = privateScheduler;
            LOG.log(Level.INFO, "Locksmith connected to " + store.description()
                    + "; the watchdog runs on a private daemon scheduler");
        } else {
            privateScheduler = null;
            LOG.log(Level.INFO, "Locksmith connected to " + store.description()
                    + "; the watchdog runs on the container's scheduler " + scheduler);
        }
        this.renewer = new LeaseRenewer(scheduler, settings.lease(), store);
    }

    LockSettings settings() {
        return settings;
    }

    LockStore store() {
        return store;
    }

    HoldTable holds() {
        return holds;
    }

    ContentionRegistry contention() {
        return contention;
    }

    OwnerIds owners() {
        return owners;
    }

    System.Logger log() {
        return LOG;
    }

    /**
     * @return the watchdog
     */
    public LeaseRenewer renewer() {
        return renewer;
    }

    <T> T await(CompletionStage<T> reply, String what) {
        return replies.await(reply, what);
    }

    void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("This LockManager is closed; build a new one with Locksmith.builder()"
                    + " (or let CDI inject the application's)");
        }
    }

    /**
     * @return the call that drops every hold counted in {@code field} of a lock, whoever runs it
     */
    static ScriptCall releaseAll(LockKeys keys, String field, String expiryField) {
        return ScriptCall.integer(RELEASE_ALL, new String[] {keys.hash(), keys.channel()}, field, expiryField,
                keys.publish());
    }

    /**
     * Drops a hold without waiting for the answer; used when an acquisition failed in a way that
     * leaves open whether Redis applied it. Sent on the same connection after the acquisition,
     * so Redis runs it after that acquisition.
     */
    void abandon(LockKeys keys, String field, String expiryField) {
        store.everywhere(releaseAll(keys, field, expiryField)).whenComplete((released, failure) -> {
            if (failure != null) {
                LOG.log(Level.WARNING, "Could not clean up an uncertain acquisition of " + keys.hash()
                        + "; it expires with its lease", failure);
            }
        });
    }

    /**
     * Checks that Redis still has every given hold and extends each one's lease by its own lease
     * time, in one round trip: one renewal call per server (or slot) and lease time, all sent
     * before any answer is awaited. A hold Redis no longer has is marked lost and no longer
     * renewed. The transaction support calls this before commit.
     *
     * @param holds holds of this runtime, from any thread
     * @return the holds that are lost, empty when all are still held
     * @throws LockException if Redis cannot be reached; no hold is marked lost then
     */
    public List<Hold> confirmAndExtend(Collection<Hold> holds) {
        checkOpen();
        List<Hold> lost = new ArrayList<>();
        Map<List<Long>, List<Hold>> byServerAndLease = new LinkedHashMap<>();
        for (Hold hold : holds) {
            if (hold.isLost()) {
                lost.add(hold);
            } else {
                List<Long> group = List.of((long) store.partitionOf(hold.keys().hash()), hold.leaseMillis());
                byServerAndLease.computeIfAbsent(group, key -> new ArrayList<>()).add(hold);
            }
        }
        long sentAt = System.nanoTime();
        Map<List<Hold>, CompletionStage<List<Long>>> answers = new LinkedHashMap<>();
        for (List<Hold> group : byServerAndLease.values()) {
            answers.put(group, store.renew(RenewalCall.of(group, group.get(0).leaseMillis())));
        }
        for (Map.Entry<List<Hold>, CompletionStage<List<Long>>> answer : answers.entrySet()) {
            List<Hold> group = answer.getKey();
            List<Long> confirmed = await(answer.getValue(), "Confirming " + group.size() + " held lock(s)");
            for (int i = 0; i < group.size(); i++) {
                Hold hold = group.get(i);
                if (confirmed.get(i) == 1L) {
                    hold.confirmedAt(sentAt);
                } else {
                    hold.markLost();
                    renewer.untrack(hold);
                    lost.add(hold);
                }
            }
        }
        return lost;
    }

    /**
     * Asks Redis whether it answers, within {@code timeout}: for health checks, which must answer
     * quickly even while Redis is away.
     *
     * @return where the locks live, without secrets
     * @throws LockException with the reason when Redis does not answer in time
     */
    public String checkReachable(Duration timeout) {
        checkOpen();
        try {
            store.ping().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return store.description();
        } catch (TimeoutException e) {
            throw new LockException("Redis at " + store.description() + " did not answer within " + timeout.toMillis()
                    + " ms", e);
        } catch (ExecutionException e) {
            throw new LockException("Redis at " + store.description() + " does not answer: " + e.getCause().getMessage(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockException("Interrupted while asking Redis at " + store.description() + " whether it answers", e);
        }
    }

    /**
     * @return the number of subscribed channels and waiting locks, for leak checks
     */
    public String waitingState() {
        return "channels=" + store.channels().activeChannels() + ", contended names=" + contention.size()
                + ", holds=" + holds.size() + ", renewed=" + renewer.trackedCount();
    }

    /**
     * Stops the watchdog, releases every hold still recorded, wakes local waiters (who then
     * fail), and closes the connections. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        renewer.close();
        for (Hold hold : holds.all()) {
            try {
                await(store.everywhere(releaseAll(hold.keys(), hold.field(), hold.expiryField())), "Release on close");
            } catch (LockException e) {
                LOG.log(Level.WARNING, "Could not release the " + hold + " on close; it expires with its lease", e);
            }
            holds.remove(hold);
        }
        contention.wakeAll();
        if (privateScheduler != null) {
            privateScheduler.shutdownNow();
        }
        store.close();
    }
}
