package dev.locksmith.testing;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler whose periodic tasks can be held: while paused, their runs are skipped, as if the
 * machine that runs them had stopped. Hand it to a manager as its watchdog scheduler to let a
 * lease run out on purpose.
 */
public final class PausableScheduler extends ScheduledThreadPoolExecutor {
    private volatile boolean paused;

    public PausableScheduler() {
        super(1, runnable -> {
            Thread thread = new Thread(runnable, "pausable-scheduler");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Skips every periodic run from now on, until {@link #resume()}.
     */
    public void pause() {
        paused = true;
    }

    public void resume() {
        paused = false;
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return super.scheduleAtFixedRate(() -> {
            if (!paused) {
                command.run();
            }
        }, initialDelay, period, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return super.scheduleWithFixedDelay(() -> {
            if (!paused) {
                command.run();
            }
        }, initialDelay, delay, unit);
    }
}
