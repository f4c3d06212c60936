package dev.locksmith.internal.lock;

import dev.locksmith.LockException;
import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.RedisEndpoint;
import dev.locksmith.internal.redis.ReleaseChannels;
import dev.locksmith.internal.redis.ScriptRunner;
import dev.locksmith.internal.watchdog.LeaseRenewer;
import io.lettuce.core.ScriptOutputType;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What every lock of one {@link dev.locksmith.LockManager} shares: the Redis connections, the
 * scripts, the hold table, the local contention and the watchdog.
 */
public final class LockRuntime implements AutoCloseable {
    private static final Logger LOG = System.getLogger(LockRuntime.class.getName());
    private static final LuaScript RELEASE_ALL = LuaScript.load("release-all");
    private static final LuaScript RENEW = LuaScript.load("renew");

    private final LockSettings settings;
    private final RedisEndpoint redis;
    private final ScriptRunner scripts;
    private final ReleaseChannels channels;
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
        this.redis = RedisEndpoint.connect(settings.mode(), settings.uris(), settings.commandTimeout());
        this.scripts = new ScriptRunner(redis.commands());
        this.channels = new ReleaseChannels(redis.pubSub());
        this.replies = new RedisReplies(settings.commandTimeout());
        ScheduledExecutorService scheduler = settings.watchdogScheduler();
        if (scheduler == null) {
            privateScheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "locksmith-watchdog");
                thread.setDaemon(true);
                return thread;
            });
            scheduler = privateScheduler;
            LOG.log(Level.INFO, "Locksmith connected to " + redis.description()
                    + "; the watchdog runs on a private daemon scheduler");
        } else {
            privateScheduler = null;
            LOG.log(Level.INFO, "Locksmith connected to " + redis.description()
                    + "; the watchdog runs on the container's scheduler " + scheduler);
        }
        this.renewer = new LeaseRenewer(scheduler, settings.lease(), scripts, redis::partitionOf);
    }

    LockSettings settings() {
        return settings;
    }

    RedisEndpoint redis() {
        return redis;
    }

    ScriptRunner scripts() {
        return scripts;
    }

    ReleaseChannels channels() {
        return channels;
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
     * Drops every hold of {@code owner} on a lock without waiting for the answer; used when an
     * acquisition failed in a way that leaves open whether Redis applied it. Sent on the same
     * connection after the acquisition, so Redis runs it after that acquisition.
     */
    void abandon(LockKeys keys, String owner) {
        scripts.run(RELEASE_ALL, ScriptOutputType.INTEGER, new String[] {keys.hash(), keys.channel()}, owner)
                .whenComplete((released, failure) -> {
                    if (failure != null) {
                        LOG.log(Level.WARNING, "Could not clean up an uncertain acquisition of " + keys.hash()
                                + "; it expires with its lease", failure);
                    }
                });
    }

    /**
     * Checks that Redis still has every given hold and extends each one's lease by its own lease
     * time, in one round trip: one renewal script call per server and lease time, all sent before
     * any answer is awaited. A hold Redis no longer has is marked lost and no longer renewed.
     * The transaction support calls this before commit.
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
                List<Long> group = List.of((long) redis.partitionOf(hold.keys().hash()), hold.leaseMillis());
                byServerAndLease.computeIfAbsent(group, key -> new ArrayList<>()).add(hold);
            }
        }
        long sentAt = System.nanoTime();
        Map<List<Hold>, CompletionStage<List<Long>>> answers = new LinkedHashMap<>();
        for (List<Hold> group : byServerAndLease.values()) {
            String[] keys = new String[group.size()];
            String[] args = new String[group.size() + 1];
            args[0] = Long.toString(group.get(0).leaseMillis());
            for (int i = 0; i < group.size(); i++) {
                keys[i] = group.get(i).keys().hash();
                args[i + 1] = group.get(i).owner();
            }
            answers.put(group, scripts.run(RENEW, ScriptOutputType.MULTI, keys, args));
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
     * @return the number of subscribed channels and waiting lock names, for leak checks
     */
    public String waitingState() {
        return "channels=" + channels.activeChannels() + ", contended names=" + contention.size()
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
                await(scripts.run(RELEASE_ALL, ScriptOutputType.INTEGER,
                        new String[] {hold.keys().hash(), hold.keys().channel()}, hold.owner()), "Release on close");
            } catch (LockException e) {
                LOG.log(Level.WARNING, "Could not release the " + hold + " on close; it expires with its lease", e);
            }
            holds.remove(hold);
        }
        contention.wakeAll();
        if (privateScheduler != null) {
            privateScheduler.shutdownNow();
        }
        redis.close();
    }
}
