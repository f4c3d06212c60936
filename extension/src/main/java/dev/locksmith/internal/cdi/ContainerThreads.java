package dev.locksmith.internal.cdi;

import dev.locksmith.internal.classpath.Jndi;
import dev.locksmith.internal.classpath.OptionalApi;
import jakarta.enterprise.inject.Instance;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;

/**
 * Finds the container's threads for Locksmith: the {@code ManagedScheduledExecutorService} the
 * watchdog runs on and the {@code ManagedThreadFactory} that makes Redis I/O threads. Each is
 * looked up at its configured JNDI name, else as a CDI bean (Jakarta EE 11 has them as beans).
 * Where neither exists (Java SE, a server without Jakarta Concurrency) Locksmith uses threads
 * of its own, and {@link Found#source()} says so. Locksmith never calls a managed executor's
 * life-cycle methods, and never publishes one as a bean: a container with its own would see two.
 *
 * @param <T> what is looked up
 */
final class ContainerThreads<T> {
    private static final String MANAGED_SCHEDULER = "jakarta.enterprise.concurrent.ManagedScheduledExecutorService";
    private static final String MANAGED_THREAD_FACTORY = "jakarta.enterprise.concurrent.ManagedThreadFactory";

    private final ConfigKey key;
    private final Class<T> expected;
    private final String managedType;

    private ContainerThreads(ConfigKey key, Class<T> expected, String managedType) {
        this.key = key;
        this.expected = expected;
        this.managedType = managedType;
    }

    /**
     * @return the lookup of the watchdog's scheduler, at {@code locksmith.executor}
     */
    static ContainerThreads<ScheduledExecutorService> watchdogScheduler() {
        return new ContainerThreads<>(ConfigKey.EXECUTOR, ScheduledExecutorService.class, MANAGED_SCHEDULER);
    }

    /**
     * @return the lookup of the Redis I/O thread factory, at {@code locksmith.thread-factory}
     */
    static ContainerThreads<ThreadFactory> redisThreadFactory() {
        return new ContainerThreads<>(ConfigKey.THREAD_FACTORY, ThreadFactory.class, MANAGED_THREAD_FACTORY);
    }

    /**
     * @param jndiName    the configured JNDI name
     * @param beans       the application's beans, for the CDI fallback
     * @return what was found and where, or nothing found and why
     * @throws IllegalArgumentException if the name is bound to something of another type
     */
    Found<T> find(String jndiName, Instance<Object> beans) {
        Object bound = Jndi.lookup(jndiName);
        if (expected.isInstance(bound)) {
            return new Found<>(expected.cast(bound), "the container's " + simpleName() + " at " + jndiName);
        }
        if (bound != null) {
            throw new IllegalArgumentException(key.key() + " = '" + jndiName + "' names a " + bound.getClass().getName()
                    + ", not a " + simpleName() + ". Name the server's " + simpleName() + ", for example "
                    + key.defaultValue());
        }
        if (!OptionalApi.CONCURRENCY.isPresent()) {
            return new Found<>(null, "Locksmith's own threads (Jakarta Concurrency is not on the class path)");
        }
        T bean = bean(beans);
        if (bean != null) {
            return new Found<>(bean, "the container's " + simpleName() + " bean");
        }
        return new Found<>(null, "Locksmith's own threads (no " + simpleName() + " at " + jndiName
                + " nor as a CDI bean)");
    }

    private String simpleName() {
        return managedType.substring(managedType.lastIndexOf('.') + 1);
    }

    private T bean(Instance<Object> beans) {
        Class<?> type = OptionalApi.CONCURRENCY.type(managedType);
        if (type == null) {
            return null;
        }
        Object found = ContainerBeans.find(beans, type);
        return expected.isInstance(found) ? expected.cast(found) : null;
    }

    /**
     * @param value  the container's object, or null for Locksmith's own threads
     * @param source where it came from, for the startup log line
     * @param <T>    what was looked up
     */
    record Found<T>(T value, String source) {
    }
}
