package dev.locksmith.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler whose periodic tasks run only when the test says so ({@link #runPeriodicTasks()}),
 * on the test's thread: a watchdog tick happens exactly where the test wants it.
 */
public final class ManualScheduler extends ScheduledThreadPoolExecutor {
    private final List<Runnable> periodic = new CopyOnWriteArrayList<>();

    public ManualScheduler() {
        super(1);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        periodic.add(command);
        return super.schedule(() -> periodic.remove(command), 365, TimeUnit.DAYS);
    }

    /**
     * Runs every periodic task once, now, on the calling thread.
     */
    public void runPeriodicTasks() {
        periodic.forEach(Runnable::run);
    }
}
