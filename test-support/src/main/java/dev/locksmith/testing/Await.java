package dev.locksmith.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits, up to a deadline, for a state that is reported only when asked: a replication link,
 * a cluster state, a sentinel's view of the master, a waiter's subscription, a queue's length.
 * Nothing sends a notification for these, so this asks again every few milliseconds; the
 * deadline, not the interval, bounds the wait.
 */
public final class Await {
    private static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private Await() {
    }

    /**
     * @param what      the awaited state in words, for the failure message
     * @param timeout   how long to wait at most
     * @param condition true once the state is reached; an exception counts as not yet
     * @return how long the wait took
     * @throws IllegalStateException naming the state, after the deadline
     */
    public static Duration until(String what, Duration timeout, BooleanSupplier condition) {
        return until(what, timeout, condition, () -> "");
    }

    /**
     * @param what        the awaited state, for the error message ("replicas in sync with ...")
     * @param timeout     how long to wait at most
     * @param condition   true once the state is reached; an exception counts as not yet
     * @param diagnostics the node logs to add to the error message
     * @return how long the wait took
     * @throws IllegalStateException naming the state, the last error and the logs, after the deadline
     */
    public static Duration until(String what, Duration timeout, BooleanSupplier condition,
                                 Supplier<String> diagnostics) {
        return untilNothingPending(what, timeout, () -> condition.getAsBoolean() ? null : "not yet", diagnostics);
    }

    /**
     * Like {@link #until}, for a state made of several conditions: the error message says
     * which one was still unmet.
     *
     * @param pending what is still missing, or null once the state is reached; an exception
     *                counts as not yet
     */
    public static Duration untilNothingPending(String what, Duration timeout, Supplier<String> pending,
                                        Supplier<String> diagnostics) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        RuntimeException lastError = null;
        String lastPending = null;
        while (true) {
            try {
                lastPending = pending.get();
                if (lastPending == null) {
                    return Duration.ofNanos(System.nanoTime() - start);
                }
                lastError = null;
            } catch (RuntimeException e) {
                lastError = e;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException(what + " did not happen within " + timeout.toMillis() + " ms"
                        + (lastError == null ? "; still " + lastPending : "; last error: " + lastError)
                        + "\n" + diagnostics.get(), lastError);
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + what);
            }
            LockSupport.parkNanos(INTERVAL_NANOS);
        }
    }
}
