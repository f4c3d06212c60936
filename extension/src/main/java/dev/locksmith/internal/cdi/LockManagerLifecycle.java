package dev.locksmith.internal.cdi;

import dev.locksmith.LockManager;
import dev.locksmith.internal.classpath.OptionalApi;
import dev.locksmith.internal.jta.ReleaseAfterCompletion;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.internal.lock.UnlockDeferral;
import jakarta.enterprise.inject.Instance;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.function.Supplier;

/**
 * Creates the application's {@link LockManager} bean the first time it is used (on a thread of
 * the application, where JNDI has the component's names) and closes it when the application
 * stops. Wires the release after JTA completion when the JTA API is there.
 */
final class LockManagerLifecycle {
    private static final Logger LOG = System.getLogger(LockManagerLifecycle.class.getName());

    private final Supplier<Instance<Object>> beans;
    private volatile LocksmithSettings settings;
    private volatile UnlockDeferral unlockDeferral = UnlockDeferral.NONE;
    private volatile DefaultLockManager current;

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
     * @return a connected manager
     */
    LockManager create() {
        Instance<Object> beans = this.beans.get();
        var scheduler = ContainerThreads.watchdogScheduler().find(settings.executor(), beans);
        var threadFactory = ContainerThreads.redisThreadFactory().find(settings.threadFactory(), beans);
        LOG.log(Level.INFO, "Locksmith's watchdog runs on " + scheduler.source() + "; Redis I/O threads come from "
                + threadFactory.source());
        Object openTelemetry = ApplicationIdentity.openTelemetry(beans);
        DefaultLockManager manager = (DefaultLockManager) settings.builder()
                .watchdogScheduler(scheduler.value())
                .threadFactory(threadFactory.value())
                .applicationName(ApplicationIdentity.applicationName(settings.applicationName()))
                .openTelemetry(settings.telemetry() ? openTelemetry : null)
                .build();
        if (OptionalApi.JTA.isPresent()) {
            UnlockDeferral deferral = ReleaseAfterCompletion.create(manager.leases(),
                    type -> ContainerBeans.find(beans, type));
            manager.deferUnlocksWith(deferral);
            unlockDeferral = deferral;
        }
        current = manager;
        return manager;
    }

    /**
     * @return the application's beans; only once the deployment was validated
     */
    Instance<Object> beans() {
        return beans.get();
    }

    /**
     * @return the manager the bean holds now, or null before its first use
     */
    DefaultLockManager current() {
        return current;
    }

    /**
     * @param manager the manager {@link #create()} made
     */
    void destroy(LockManager manager) {
        unlockDeferral = UnlockDeferral.NONE;
        current = null;
        manager.close();
    }

    /**
     * @return how the interceptor hands over its releases; valid once the bean was created
     */
    UnlockDeferral unlockDeferral() {
        return unlockDeferral;
    }
}
