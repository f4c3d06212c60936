package dev.locksmith.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition that another thread, process or server brings about, with a deadline:
 * the test fails with the description when it is not met in time.
 */
public final class Await {
    private Await() {
    }

    /**
     * @param what      the condition in words, for the failure message
     * @param timeout   how long it may take
     * @param condition checked every few milliseconds
     */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Not true within " + timeout + ": " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
