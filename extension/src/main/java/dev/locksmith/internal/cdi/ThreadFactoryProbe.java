package dev.locksmith.internal.cdi;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Finds out whether a container's thread factory runs the threads it makes now, before Lettuce's
 * I/O threads are taken from it. A container may hold back the managed threads made while the
 * application starts (Open Liberty with Jakarta Concurrency does: such a thread never runs its
 * task), and a connection whose I/O threads never run is never made, not even timed out.
 */
final class ThreadFactoryProbe {
    private ThreadFactoryProbe() {
    }

    /**
     * Makes one thread with {@code factory}, starts it, and waits at most {@code bound} for it to run
     * its (empty) task.
     *
     * @param factory the container's thread factory
     * @param bound   how long a thread may take to start running
     * @return null if the thread ran; otherwise what happened instead, for the log
     */
    static String whyNotRunning(ThreadFactory factory, Duration bound) {
        CountDownLatch settled = new CountDownLatch(1); // the task ran, or the thread died before it
        AtomicBoolean ran = new AtomicBoolean();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread probe;
        try {
            probe = factory.newThread(() -> {
                ran.set(true);
                settled.countDown();
            });
        } catch (RuntimeException e) {
            return "it refused to make a thread: " + e;
        }
        if (probe == null) {
            return "it made no thread (newThread returned null)";
        }
        probe.setUncaughtExceptionHandler((thread, e) -> {
            thrown.set(e);
            settled.countDown();
        });
        try {
            probe.start();
        } catch (RuntimeException e) {
            return "the thread it made could not start: " + e;
        }
        boolean interrupted = false;
        try {
            settled.await(bound.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (ran.get()) {
            return null;
        }
        Throwable failure = thrown.get();
        return failure != null
                ? "the thread it made ended without running its task: " + failure
                : "the thread it made had not run its task after " + bound.toMillis() + " ms (thread state "
                        + probe.getState() + ")";
    }
}
