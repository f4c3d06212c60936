package dev.locksmith.internal.manager;

import dev.locksmith.CallOptions;
import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedReadWriteLock;
import dev.locksmith.Fence;
import dev.locksmith.JobInfo;
import dev.locksmith.LockException;
import dev.locksmith.LockInfo;
import dev.locksmith.LockManager;
import dev.locksmith.RedisMode;
import dev.locksmith.WhenHeld;
import dev.locksmith.internal.classpath.OptionalApi;
import dev.locksmith.internal.config.LockSettings;
import dev.locksmith.internal.config.TimeLimits;
import dev.locksmith.internal.lease.LeaseKeeper;
import dev.locksmith.internal.lock.LockEngine;
import dev.locksmith.internal.lock.call.GuardedCall;
import dev.locksmith.internal.lock.call.UnlockDeferral;
import dev.locksmith.internal.lock.kind.LockNames;
import dev.locksmith.internal.lock.local.SleepingWaiters;
import dev.locksmith.internal.observe.LockLabels;
import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.internal.redis.RedisResources;
import dev.locksmith.internal.store.LockStore;
import dev.locksmith.internal.store.RedisReplies;
import dev.locksmith.internal.store.redlock.RedLockStore;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link LockManager} behind {@link dev.locksmith.Locksmith#builder()}: connects, wires the
 * parts every lock of the manager shares, and hands out lock views over them.
 */
public final class DefaultLockManager implements LockManager {
    private static final Logger LOG = System.getLogger(DefaultLockManager.class.getName());

    private final RedisResources resources;
    private final ScheduledExecutorService privateScheduler;
    private final LockStore store;
    private final LeaseKeeper leases;
    private final LockEngine engine;
    private final ManagerDirectory directory;
    private final LockInspection inspection;
    private final LockObserver observer;
    private final LockLabels labels;
    private volatile UnlockDeferral unlockDeferral = UnlockDeferral.NONE;

    private DefaultLockManager(RedisResources resources, ScheduledExecutorService privateScheduler, LockStore store,
                               LeaseKeeper leases, LockEngine engine, ManagerDirectory directory,
                               LockInspection inspection, LockObserver observer, LockLabels labels) {
        this.resources = resources;
        this.privateScheduler = privateScheduler;
        this.store = store;
        this.leases = leases;
        this.engine = engine;
        this.directory = directory;
        this.inspection = inspection;
        this.observer = observer;
        this.labels = labels;
    }

    /**
     * Connects to Redis and starts the watchdog. Whatever it opened is closed again when it fails.
     *
     * @param settings validated settings
     * @return the connected manager
     * @throws LockException if Redis cannot be reached
     */
    public static DefaultLockManager connect(LockSettings settings) {
        return connect(settings, settings.telemetry().observer());
    }

    /**
     * Connects to Redis with an observer made beforehand: made on an application's thread, where a
     * container's OpenTelemetry bean can be created, while the connect itself may run on a thread
     * of Locksmith's own. Whatever it opened is closed again when it fails.
     *
     * @param settings validated settings
     * @param observer the observer of every lock, from {@code settings.telemetry().observer()}
     * @return the connected manager
     * @throws LockException if Redis cannot be reached
     */
    public static DefaultLockManager connect(LockSettings settings, LockObserver observer) {
        RedisResources resources = RedisResources.create(settings.threadFactory());
        LockStore store = null;
        ScheduledExecutorService privateScheduler = null;
        LeaseKeeper leases = null;
        try {
            store = settings.mode() == RedisMode.REDLOCK
                    ? RedLockStore.connect(resources, settings.uris(), settings.commandTimeout(), settings.lease())
                    : LockStore.connectDeployment(resources, settings.mode(), settings.uris(), settings.commandTimeout());
            RedisReplies replies = new RedisReplies(settings.commandTimeout(), observer);
            RedisPermissions.check(store, replies, settings.keyPrefix(), settings.syncReplicas() > 0);
            ScheduledExecutorService scheduler = settings.watchdogScheduler();
            if (scheduler == null) {
                privateScheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
                    Thread thread = new Thread(runnable, "locksmith-watchdog");
                    thread.setDaemon(true);
                    return thread;
                });
                scheduler = privateScheduler;
            }
            leases = new LeaseKeeper(store, replies, scheduler, System::nanoTime, settings.lease(), observer);
            LockEngine engine = new LockEngine(settings, store, replies, leases, observer, settings.telemetry().labels(),
                    scheduler);
            ManagerDirectory directory = ManagerDirectory.start(store, replies, settings.keyPrefix(), engine.managerId(),
                    settings.telemetry().applicationName(), settings.lease().toMillis(), scheduler);
            LOG.log(Level.INFO, "Locksmith connected to " + store.description() + "; the watchdog runs on "
                    + (privateScheduler != null ? "a private daemon scheduler" : "the given scheduler " + scheduler)
                    + "; Redis I/O threads come from " + (settings.threadFactory() != null
                    ? "the given thread factory " + settings.threadFactory() : "Lettuce's own daemon threads")
                    + "; OpenTelemetry metrics and spans " + (settings.telemetry().recordsOpenTelemetry() ? "on" : "off")
                    + ", Flight Recorder events " + (OptionalApi.FLIGHT_RECORDER.isPresent() ? "on" : "off"));
            return new DefaultLockManager(resources, privateScheduler, store, leases, engine, directory,
                    new LockInspection(store, replies, settings.keyPrefix()), observer, settings.telemetry().labels());
        } catch (RuntimeException e) {
            if (leases != null) {
                closeQuietly(leases, e);
            }
            if (privateScheduler != null) {
                privateScheduler.shutdownNow();
            }
            if (store != null) {
                closeQuietly(store, e);
            }
            closeQuietly(resources, e);
            throw e;
        }
    }

    private static void closeQuietly(AutoCloseable closeable, RuntimeException failure) {
        try {
            closeable.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Each refusal is recorded by this manager's observers, labelled like the lock's other metrics.
     */
    @Override
    public Fence fence(String table) {
        return Fence.table(table).onRefusal(refusal -> observer.fenceRefused(
                labels.of(refusal.lockName(), "fenced"), refusal.fencingToken(), refusal.databaseToken()));
    }

    /**
     * @return the holds of this manager, which the transaction support confirms before commit
     */
    public LeaseKeeper leases() {
        return leases;
    }

    /**
     * Lets {@link #callWithLock} hand its release to {@code deferral}, which the CDI support uses
     * to release after the current JTA transaction completes.
     *
     * @param deferral decides per release whether it waits; {@link UnlockDeferral#NONE} to release at once
     */
    public void deferUnlocksWith(UnlockDeferral deferral) {
        this.unlockDeferral = deferral == null ? UnlockDeferral.NONE : deferral;
    }

    @Override
    public DistributedLock getLock(String name) {
        return engine.lock(name);
    }

    @Override
    public DistributedLock getFairLock(String name) {
        return engine.fairLock(name);
    }

    @Override
    public DistributedReadWriteLock getReadWriteLock(String name) {
        return engine.readWriteLock(name);
    }

    @Override
    public DistributedLock getMultiLock(DistributedLock... locks) {
        return engine.multiLock(locks == null ? null : Arrays.asList(locks));
    }

    @Override
    public <T> T callWithLock(String name, Duration waitTime, Callable<T> action) throws Exception {
        TimeLimits.waitNanos(waitTime, "lock '" + name + "'");
        if (action == null) {
            throw new IllegalArgumentException("The action to run under lock '" + name + "' is null");
        }
        return new GuardedCall(getLock(name), waitTime, null, null, null).call(unlockDeferral, action);
    }

    @Override
    public <T> T callWithLock(String name, CallOptions options, Callable<T> action) throws Exception {
        if (options == null) {
            throw new IllegalArgumentException("The options of lock '" + name + "' are null; use"
                    + " CallOptions.waitingUpTo(wait)");
        }
        if (action == null) {
            throw new IllegalArgumentException("The action to run under lock '" + name + "' is null");
        }
        DistributedLock lock = getLock(name);
        return new GuardedCall(lock, options.waitTime(), options.leaseTime(), options.minHold(),
                options.whenHeld() == WhenHeld.SKIP, null, null)
                .forJob(options.job() == null ? lock.getName() : options.job(), null).call(unlockDeferral, action);
    }

    /**
     * Asks Redis whether it answers, within {@code timeout}: for health checks, which must answer
     * quickly even while Redis is away.
     *
     * @return where the locks live, without secrets
     * @throws LockException with the reason when Redis does not answer in time
     */
    public String checkReachable(Duration timeout) {
        engine.checkOpen();
        String where = store.description();
        try {
            store.ping().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return where;
        } catch (TimeoutException e) {
            throw new LockException("Redis at " + where + " did not answer within " + timeout.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            throw new LockException("Redis at " + where + " does not answer: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockException("Interrupted while asking Redis at " + where + " whether it answers", e);
        }
    }

    /**
     * @return what this manager has under way now
     */
    public LockStatistics statistics() {
        return new LockStatistics(store.channels().activeChannels(), engine.contendedNames(), leases.heldCount(),
                leases.renewedCount(), leases.lostCount(), engine.sleepingWaiters().total());
    }

    /**
     * Reads how many threads of this manager sleep now waiting for a lock of this name (its
     * reentrant, fair and read/write lock): whether a stuck-looking lock has waiters here, and
     * whether they sleep in the local line, where a release here hands the lock straight over.
     *
     * @param name a lock name
     * @return the sleeping threads, in the local line and outside it
     * @throws IllegalArgumentException if the name is not a valid lock name
     */
    public SleepingWaiters sleepingWaiters(String name) {
        return engine.sleepingWaiters(name);
    }

    @Override
    public LockInfo describe(String name) {
        LockNames.require(name);
        engine.checkOpen();
        return inspection.describe(name);
    }

    @Override
    public JobInfo describeJob(String job) {
        LockNames.require(job);
        engine.checkOpen();
        return inspection.describeJob(job);
    }

    /**
     * Refuses new calls and wakes local waiters (who then fail), waits for the calls under way
     * (bounded), then stops the watchdog, releases every hold still recorded (a grant that arrived
     * during the close included), and closes the connections. Idempotent.
     */
    @Override
    public void close() {
        if (!engine.close()) {
            return;
        }
        leases.close();
        directory.close();
        if (privateScheduler != null) {
            privateScheduler.shutdownNow();
        }
        try {
            store.close();
        } finally {
            resources.close();
        }
    }
}
