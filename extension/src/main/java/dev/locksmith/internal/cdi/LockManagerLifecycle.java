package dev.locksmith.internal.cdi;

import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.internal.classpath.OptionalApi;
import dev.locksmith.internal.jta.ReleaseAfterCompletion;
import dev.locksmith.internal.lock.call.UnlockDeferral;
import dev.locksmith.internal.manager.ConnectingLockManager;
import dev.locksmith.internal.manager.DefaultLockManager;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Owns the application's one {@link LockManager}: makes it when the application starts (both
 * extensions call {@link #start()} from their {@code Startup} observer), on a thread of the
 * application where JNDI has the component's names, so that it connects then and not in the
 * first locked call; hands it to the {@code LockManager} bean; and closes it when the application
 * stops. A Redis that cannot be reached at startup leaves a manager that connects in the
 * background, unless {@code locksmith.redis.fail-fast=true} fails the deployment instead. Wires
 * the release after JTA completion, when the JTA API is there, before the manager serves a call.
 * Redis I/O threads come from the container's {@code ManagedThreadFactory} when it runs the threads
 * it makes at that moment ({@link ThreadFactoryProbe}), otherwise from Lettuce's own.
 */
final class LockManagerLifecycle {
    private static final Logger LOG = System.getLogger(LockManagerLifecycle.class.getName());
    /** How long a thread from the container's factory may take to start running; milliseconds when it does. */
    private static final Duration THREAD_START_BOUND = Duration.ofSeconds(2);

    private final Supplier<Instance<Object>> beans;
    private volatile LocksmithSettings settings;
    private volatile UnlockDeferral unlockDeferral = UnlockDeferral.NONE;
    private ConnectingLockManager manager; // guarded by this

    /**
     * @param beans the application's beans, asked for only when the manager is created: a
     *              portable extension may not look beans up before deployment is validated
     */
    LockManagerLifecycle(Supplier<Instance<Object>> beans) {
        this.beans = beans;
    }

    /**
     * @param settings the settings checked at deployment
     */
    void configure(LocksmithSettings settings) {
        this.settings = settings;
    }

    /**
     * Makes the manager, if it is not made yet, and waits for its first attempt to connect (bounded
     * by its connect timeout); does nothing when the settings were bad (the deployment fails for
     * them already). Both extensions call it when the application starts; the portable one first
     * when the deployment is validated, before a container creates its automatic timers (Open
     * Liberty does so, and may fire them, before the application's {@code Startup} event).
     *
     * @throws DeploymentException with {@code locksmith.redis.fail-fast=true}, when Redis could not
     *                             be reached, naming the setting and the failure
     */
    void start() {
        if (settings == null) {
            return;
        }
        ConnectingLockManager started = manager();
        // The whole first attempt, which its connect timeout bounds: a first timer callback that
        // comes right after the startup must find the manager connected.
        boolean connected = started.awaitFirstAttempt();
        if (settings.failFast() && !connected) {
            String failure;
            try {
                started.connectedOrFail();
                return; // connected meanwhile
            } catch (LockException e) {
                failure = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
            }
            stop();
            throw new DeploymentException("Locksmith cannot connect to Redis at " + settings.redactedUri() + " at startup,"
                    + " and " + ConfigKey.REDIS_FAIL_FAST.key() + "=true asks the deployment to fail then: " + failure
                    + ". Start Redis or correct " + ConfigKey.REDIS_URI.key() + ", or set " + ConfigKey.REDIS_FAIL_FAST.key()
                    + "=false to deploy and connect in the background (the readiness check says DOWN until then)");
        }
    }

    /**
     * @return the application's manager, made now if {@link #start()} has not made it yet (a
     *         locked call that runs before the application's startup event)
     */
    synchronized ConnectingLockManager manager() {
        if (manager == null) {
            manager = create();
        }
        return manager;
    }

    private ConnectingLockManager create() {
        Instance<Object> beans = this.beans.get();
        var scheduler = ContainerThreads.watchdogScheduler().find(settings.executor(), beans);
        var threadFactory = ContainerThreads.redisThreadFactory().find(settings.threadFactory(), beans);
        String notRunning = threadFactory.value() == null ? null
                : ThreadFactoryProbe.whyNotRunning(threadFactory.value(), THREAD_START_BOUND);
        if (notRunning != null) {
            LOG.log(Level.INFO, "Redis I/O threads cannot come from " + threadFactory.source() + " now: "
                    + notRunning + " (a container may hold back the managed threads made while the application"
                    + " starts); they come from Lettuce's own daemon threads instead");
            threadFactory = new ContainerThreads.Found<>(null, "Lettuce's own daemon threads (" + threadFactory.source()
                    + " did not run a thread made while the application started)");
        }
        LOG.log(Level.INFO, "Locksmith's watchdog runs on " + scheduler.source() + "; Redis I/O threads come from "
                + threadFactory.source());
        Object openTelemetry = ApplicationIdentity.openTelemetry(beans);
        ConnectingLockManager created = (ConnectingLockManager) settings.builder()
                .watchdogScheduler(scheduler.value())
                .threadFactory(threadFactory.value())
                .applicationName(ApplicationIdentity.applicationName(settings.applicationName()))
                .openTelemetry(settings.telemetry() ? openTelemetry : null)
                .build();
        if (OptionalApi.JTA.isPresent()) {
            created.whenConnected(connected -> {
                UnlockDeferral deferral = ReleaseAfterCompletion.create(connected.leases(),
                        type -> ContainerBeans.find(beans, type));
                connected.deferUnlocksWith(deferral);
                unlockDeferral = deferral;
            });
        }
        return created;
    }

    /**
     * @return the application's beans; only once the deployment was validated
     */
    Instance<Object> beans() {
        return beans.get();
    }

    /**
     * @return the connected manager, or null before it was made or while Redis has not been reached
     */
    synchronized DefaultLockManager current() {
        return manager == null ? null : manager.connected();
    }

    /**
     * @param closing the manager the bean holds, which {@link #manager()} made
     */
    void destroy(LockManager closing) {
        synchronized (this) {
            if (manager == closing) {
                manager = null;
                unlockDeferral = UnlockDeferral.NONE;
            }
        }
        closing.close();
    }

    /**
     * Closes the manager when the application stops, whether or not a bean instance of it was made.
     */
    void stop() {
        ConnectingLockManager closing;
        synchronized (this) {
            closing = manager;
            manager = null;
            unlockDeferral = UnlockDeferral.NONE;
        }
        if (closing != null) {
            closing.close();
        }
    }

    /**
     * @return how the interceptor hands over its releases; valid once the manager connected
     */
    UnlockDeferral unlockDeferral() {
        return unlockDeferral;
    }
}
