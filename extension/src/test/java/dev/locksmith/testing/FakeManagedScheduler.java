package dev.locksmith.testing;

import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for a server's {@link ManagedScheduledExecutorService}: scheduling runs on real
 * threads named {@code managed-scheduler-N}, and the life-cycle methods throw
 * {@link IllegalStateException} as the specification requires of managed executors (the
 * attempts are recorded).
 */
public final class FakeManagedScheduler implements AutoCloseable {
    private static final Set<String> LIFECYCLE = Set.of("shutdown", "shutdownNow", "awaitTermination", "close");

    private final ScheduledThreadPoolExecutor threads;
    private final List<String> lifecycleCalls = new CopyOnWriteArrayList<>();
    private int runs; // guarded by this
    private final ManagedScheduledExecutorService managed;

    public FakeManagedScheduler() {
        AtomicInteger count = new AtomicInteger();
        threads = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "managed-scheduler-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        threads.setRemoveOnCancelPolicy(true);
        managed = (ManagedScheduledExecutorService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ManagedScheduledExecutorService.class}, (proxy, method, args) -> call(method, args));
    }

    private Object call(Method method, Object[] args) throws Throwable {
        if (LIFECYCLE.contains(method.getName())) {
            lifecycleCalls.add(method.getName());
            throw new IllegalStateException("Life-cycle methods of a managed executor may not be called: "
                    + method.getName());
        }
        if (method.getDeclaringClass() == Object.class) {
            return switch (method.getName()) {
                case "toString" -> "FakeManagedScheduler";
                case "hashCode" -> System.identityHashCode(this);
                default -> args[0] == managed;
            };
        }
        if (!method.getDeclaringClass().isAssignableFrom(ScheduledExecutorService.class)) {
            throw new UnsupportedOperationException(method.getName() + " is not part of this fake");
        }
        if (args != null && args.length > 0 && args[0] instanceof Runnable task) {
            args[0] = (Runnable) () -> {
                task.run();
                ran();
            };
        }
        try {
            return method.invoke(threads, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * @return the executor as the server would hand it out
     */
    public ManagedScheduledExecutorService managed() {
        return managed;
    }

    private synchronized void ran() {
        runs++;
        notifyAll();
    }

    /**
     * @return how many scheduled runnables have run on it
     */
    public synchronized int runs() {
        return runs;
    }

    /**
     * Waits until {@code more} further runnables have run, or the timeout.
     *
     * @return true if they ran in time
     */
    public synchronized boolean awaitMoreRuns(int more, Duration timeout) throws InterruptedException {
        int target = runs + more;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (runs < target) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /**
     * @return tasks still scheduled
     */
    public int scheduledTasks() {
        return threads.getQueue().size();
    }

    /**
     * @return the life-cycle methods someone tried to call
     */
    public List<String> lifecycleCalls() {
        return List.copyOf(lifecycleCalls);
    }

    /**
     * Stops the threads behind it, as the server would at its own shutdown.
     */
    @Override
    public void close() {
        ((ExecutorService) threads).shutdownNow();
    }
}
