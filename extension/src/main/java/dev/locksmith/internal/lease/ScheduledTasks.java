package dev.locksmith.internal.lease;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one-shot tasks a manager put on its scheduler (offer checks, ends of a lingering
 * subscription), known until they ran so that {@link #cancelAll()} can take every one of them
 * back at close. The scheduler may be a container's, which outlives the manager: a task left
 * there would run after the manager closed, on connections it closed.
 */
public final class ScheduledTasks {
    private final ScheduledExecutorService scheduler;
    private final Set<Future<?>> pending = ConcurrentHashMap.newKeySet();
    private volatile boolean cancelled;

    /**
     * @param scheduler where the tasks run; the manager's watchdog scheduler
     */
    public ScheduledTasks(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * Runs {@code task} once after {@code delayNanos}, unless {@link #cancelAll()} comes first.
     *
     * @throws RejectedExecutionException after {@link #cancelAll()}, or when the scheduler refuses
     */
    public void schedule(Runnable task, long delayNanos) {
        if (cancelled) {
            throw new RejectedExecutionException("the manager is closing: nothing more is scheduled");
        }
        AtomicReference<Future<?>> self = new AtomicReference<>();
        Future<?> future = scheduler.schedule(() -> {
            try {
                task.run();
            } finally {
                Future<?> ran = self.get();
                if (ran != null) {
                    pending.remove(ran);
                }
            }
        }, delayNanos, TimeUnit.NANOSECONDS);
        self.set(future);
        pending.add(future);
        if (future.isDone() || cancelled) {
            // Ran before it was recorded, or cancelAll() went through the set meanwhile.
            pending.remove(future);
            future.cancel(false);
        }
    }

    /**
     * @return how many tasks are scheduled and have not run
     */
    public int pending() {
        return pending.size();
    }

    /**
     * Cancels every task not run yet and refuses new ones. A {@link ThreadPoolExecutor} (the
     * private scheduler, and most containers' underneath) is purged too, so that no cancelled task
     * stays queued until its time.
     */
    public void cancelAll() {
        cancelled = true;
        for (Future<?> future : pending) {
            future.cancel(false);
        }
        pending.clear();
        purge(scheduler);
    }

    /**
     * Removes cancelled tasks from the scheduler's queue where it can be asked to.
     */
    public static void purge(ScheduledExecutorService scheduler) {
        if (scheduler instanceof ThreadPoolExecutor pool) {
            pool.purge();
        }
    }
}
