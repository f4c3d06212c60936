package dev.locksmith.internal.redis;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The I/O and event threads of one {@link dev.locksmith.LockManager}, shared by every Redis
 * connection it opens: one set however many servers it talks to (a RedLock manager reaches
 * several masters). Inside a container the threads come from the container's
 * {@code ManagedThreadFactory}, so the server knows and manages them.
 */
public final class RedisResources implements AutoCloseable {
    private static final Logger LOG = System.getLogger(RedisResources.class.getName());

    private final ClientResources resources;
    /** Every thread Lettuce made for these resources: few, made once each; named when one does not stop. */
    private final Set<Thread> threads;
    private final ThreadFactory threadFactory;

    private RedisResources(ClientResources resources, Set<Thread> threads, ThreadFactory threadFactory) {
        this.resources = resources;
        this.threads = threads;
        this.threadFactory = threadFactory;
    }

    /**
     * @param threadFactory where the threads come from; null for Lettuce's own daemon threads
     * @return the resources; close them after every connection made with them
     */
    public static RedisResources create(ThreadFactory threadFactory) {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        ClientResources resources = DefaultClientResources.builder()
                .threadFactoryProvider(poolName -> {
                    // Lettuce's own default, when the container gives no factory: daemon threads named by pool.
                    ThreadFactory pool = threadFactory != null ? threadFactory : new DefaultThreadFactory(poolName, true);
                    return task -> {
                        Thread thread = pool.newThread(task);
                        threads.add(thread);
                        return thread;
                    };
                })
                .build();
        return new RedisResources(resources, threads, threadFactory);
    }

    ClientResources lettuce() {
        return resources;
    }

    /**
     * A thread for work that blocks on a connect, which must not run on Lettuce's own threads:
     * a connect's timeout is itself a task of Lettuce's event executor, and a connect that blocked
     * that executor's thread would never time out.
     *
     * @param task what it runs
     * @param name its name, where the factory lets it be named
     * @return the thread, not started; from the container's factory inside a container
     */
    public Thread newThread(Runnable task, String name) {
        if (threadFactory == null) {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        }
        Thread thread = threadFactory.newThread(task);
        try {
            thread.setName(name);
        } catch (SecurityException e) {
            // A container that does not let its threads be renamed: its own name will do.
        }
        return thread;
    }

    /**
     * Stops the threads: Lettuce's shutdown with no quiet period and a timeout of
     * {@link ShutdownBound#TIMEOUT}, waited for at most that long, since a container may
     * undeploy the application right after. Threads that have not stopped by then (one stuck in
     * a task) are named in a WARNING and left to stop by themselves; this never throws.
     */
    @Override
    public void close() {
        CompletableFuture<Object> stopped = new CompletableFuture<>();
        try {
            resources.shutdown(ShutdownBound.QUIET_PERIOD.toMillis(), ShutdownBound.TIMEOUT.toMillis(),
                    TimeUnit.MILLISECONDS).addListener(future -> {
                        if (future.isSuccess()) {
                            stopped.complete(null);
                        } else {
                            stopped.completeExceptionally(future.cause());
                        }
                    });
            ShutdownBound.await(stopped, "Stopping Lettuce's I/O and event threads", this::threadsStillRunning);
        } catch (ExecutionException | RuntimeException e) {
            LOG.log(Level.WARNING, "Stopping Lettuce's I/O and event threads failed; the lock manager closes"
                    + " without waiting for them" + threadsStillRunning(), e);
        }
    }

    private String threadsStillRunning() {
        String running = threads.stream().filter(Thread::isAlive).map(RedisResources::describe)
                .sorted().collect(Collectors.joining(", "));
        return running.isEmpty() ? "" : ". Still running: " + running;
    }

    private static String describe(Thread thread) {
        // Where it is stuck: the first frame outside the JDK, which names the task that blocks it.
        StackTraceElement[] stack = thread.getStackTrace();
        StackTraceElement where = stack.length > 0 ? stack[0] : null;
        for (StackTraceElement frame : stack) {
            String type = frame.getClassName();
            if (!type.startsWith("java.") && !type.startsWith("jdk.") && !type.startsWith("sun.")) {
                where = frame;
                break;
            }
        }
        return thread.getName() + " (" + thread.getState() + (where != null ? " in " + where : "") + ")";
    }
}
