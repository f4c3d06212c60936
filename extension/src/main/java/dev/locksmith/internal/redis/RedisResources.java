package dev.locksmith.internal.redis;

import dev.locksmith.RedisMode;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.DefaultEventLoopGroupProvider;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.lettuce.core.resource.ThreadFactoryProvider;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GenericFutureListener;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The I/O and event threads of one {@link dev.locksmith.LockManager}, shared by every Redis
 * connection it opens: one set however many servers it talks to (a RedLock manager reaches
 * several masters). Inside a container the threads come from the container's
 * {@code ManagedThreadFactory}, so the server knows and manages them.
 *
 * <p>A manager of one server (standalone or Sentinel) has one I/O thread: it has two connections,
 * commands and pub/sub, and with both on one thread, the attempt the pub/sub thread sends when
 * Redis offers this process a lock is written at once, where a second thread would first have to
 * be woken to write it. That wake-up is on the path of every hand-off between processes. A
 * cluster or RedLock manager, with connections to several servers, keeps Lettuce's default.
 */
public final class RedisResources implements AutoCloseable {
    private static final Logger LOG = System.getLogger(RedisResources.class.getName());

    private final ClientResources resources;
    /** The one I/O thread of a manager of one server; Lettuce does not stop a provider it was given. */
    private final EventLoopGroupProvider ownIoThread;
    /** Every thread Lettuce made for these resources: few, made once each; named when one does not stop. */
    private final Set<Thread> threads;

    private RedisResources(ClientResources resources, EventLoopGroupProvider ownIoThread, Set<Thread> threads) {
        this.resources = resources;
        this.ownIoThread = ownIoThread;
        this.threads = threads;
    }

    /**
     * @param threadFactory where the threads come from; null for Lettuce's own daemon threads
     * @param mode          how the manager reaches Redis, which sets the number of I/O threads
     * @return the resources; close them after every connection made with them
     */
    public static RedisResources create(ThreadFactory threadFactory, RedisMode mode) {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        ThreadFactoryProvider recorded = poolName -> {
            // Lettuce's own default, when the container gives no factory: daemon threads named by pool.
            ThreadFactory pool = threadFactory != null ? threadFactory : new DefaultThreadFactory(poolName, true);
            return task -> {
                Thread thread = pool.newThread(task);
                threads.add(thread);
                return thread;
            };
        };
        ClientResources.Builder builder = DefaultClientResources.builder().threadFactoryProvider(recorded);
        EventLoopGroupProvider ownIoThread = null;
        if (mode == RedisMode.STANDALONE || mode == RedisMode.SENTINEL) {
            // Lettuce's ioThreadPoolSize has a floor of 2; a provider of our own may have 1.
            ownIoThread = new DefaultEventLoopGroupProvider(1, recorded);
            builder.eventLoopGroupProvider(ownIoThread);
        }
        return new RedisResources(builder.build(), ownIoThread, threads);
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
     * Stops the threads: Lettuce's shutdown with no quiet period and a timeout of
     * {@link ShutdownBound#TIMEOUT}, waited for at most that long, since a container may
     * undeploy the application right after. Threads that have not stopped by then (one stuck in
     * a task) are named in a WARNING and left to stop by themselves; this never throws.
     */
    @Override
    public void close() {
        CompletableFuture<Object> stopped = new CompletableFuture<>();
        try {
            Future<Boolean> lettuce = resources.shutdown(ShutdownBound.QUIET_PERIOD.toMillis(),
                    ShutdownBound.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Future<Boolean> ioThread = ownIoThread == null ? null : ownIoThread.shutdown(
                    ShutdownBound.QUIET_PERIOD.toMillis(), ShutdownBound.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            AtomicInteger pending = new AtomicInteger(ioThread == null ? 1 : 2);
            GenericFutureListener<Future<Boolean>> done = future -> {
                if (!future.isSuccess()) {
                    stopped.completeExceptionally(future.cause());
                } else if (pending.decrementAndGet() == 0) {
                    stopped.complete(null);
                }
            };
            lettuce.addListener(done);
            if (ioThread != null) {
                ioThread.addListener(done);
            }
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
