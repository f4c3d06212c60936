package dev.locksmith.internal.redis;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The I/O and event threads of one {@link dev.locksmith.LockManager}, shared by every Redis
 * connection it opens: one set however many servers it talks to (a RedLock manager reaches
 * several masters). Inside a container the threads come from the container's
 * {@code ManagedThreadFactory}, so the server knows and manages them.
 */
public final class RedisResources implements AutoCloseable {
    private final ClientResources resources;

    private RedisResources(ClientResources resources) {
        this.resources = resources;
    }

    /**
     * @param threadFactory where the threads come from; null for Lettuce's own daemon threads
     * @return the resources; close them after every connection made with them
     */
    public static RedisResources create(ThreadFactory threadFactory) {
        DefaultClientResources.Builder builder = DefaultClientResources.builder();
        if (threadFactory != null) {
            builder.threadFactoryProvider(poolName -> threadFactory);
        }
        return new RedisResources(builder.build());
    }

    ClientResources lettuce() {
        return resources;
    }

    /**
     * Runs {@code task} once after {@code delayMillis}, on one of these threads; for work that may
     * block for a connect timeout, such as reconnecting to a server that was down.
     */
    public void schedule(Runnable task, long delayMillis) {
        resources.eventExecutorGroup().schedule(task, delayMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * Stops the threads; waits briefly for them, since a container may undeploy the application
     * right after.
     */
    @Override
    public void close() {
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
