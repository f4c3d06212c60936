package dev.locksmith.internal.manager;

import dev.locksmith.internal.lease.ScheduledTasks;
import dev.locksmith.internal.lock.ProcessDescription;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.internal.store.LockStore;
import dev.locksmith.internal.store.RedisReplies;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Keeps this manager's description (host, process id, application) in Redis under
 * {@code <prefix>manager:<id>}, so that any process can say who holds a lock: a hold names only
 * its owner id, which starts with the manager's id. Published at start and at every watchdog
 * tick (a third of the lease), living three leases, withdrawn on close: one small write per
 * manager per tick, none per lock. Written whole each time, so a Redis that lost its data knows
 * the manager again within one tick.
 */
final class ManagerDirectory implements AutoCloseable {
    private static final Logger LOG = System.getLogger(ManagerDirectory.class.getName());

    private final LockStore store;
    private final RedisReplies replies;
    private final String key;
    private final String description;
    private final long lifetimeMillis;
    private final ScheduledExecutorService scheduler;
    private final ScheduledFuture<?> refresh;

    private ManagerDirectory(LockStore store, RedisReplies replies, String key, String description, long leaseMillis,
            ScheduledExecutorService scheduler) {
        this.store = store;
        this.replies = replies;
        this.key = key;
        this.description = description;
        this.lifetimeMillis = 3 * leaseMillis;
        replies.await(store.everywhere(call(description)), "Publishing this manager's description");
        long tick = Math.max(1, leaseMillis / 3);
        this.scheduler = scheduler;
        this.refresh = scheduler.scheduleAtFixedRate(this::publish, tick, tick, TimeUnit.MILLISECONDS);
    }

    /**
     * Publishes the description now and keeps it published.
     */
    static ManagerDirectory start(LockStore store, RedisReplies replies, String keyPrefix, String managerId,
            String applicationName, long leaseMillis, ScheduledExecutorService scheduler) {
        return new ManagerDirectory(store, replies, keyOf(keyPrefix, managerId),
                ProcessDescription.of(applicationName), leaseMillis, scheduler);
    }

    /**
     * @return the key of the manager with that id
     */
    static String keyOf(String keyPrefix, String managerId) {
        return keyPrefix + "manager:" + managerId;
    }

    private void publish() {
        try {
            store.everywhere(call(description)).whenComplete((done, failure) -> {
                if (failure != null) {
                    LOG.log(Level.DEBUG, "Could not refresh this manager's description; retrying next tick", failure);
                }
            });
        } catch (RuntimeException e) {
            // A thrown exception would cancel the periodic task.
            LOG.log(Level.DEBUG, "Could not refresh this manager's description; retrying next tick", e);
        }
    }

    private ScriptCall call(String text) {
        return LockScript.call("manager").key("manager", key).arg("description", text).arg("lifetime", lifetimeMillis)
                .integer();
    }

    @Override
    public void close() {
        refresh.cancel(false);
        ScheduledTasks.purge(scheduler); // a container's scheduler outlives the manager: leave no task queued
        try {
            replies.await(store.everywhere(call("")), "Withdrawing this manager's description");
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "Could not withdraw this manager's description; it expires by itself", e);
        }
    }
}
