package dev.locksmith.it;

import dev.locksmith.DistributedLock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Watches a lock from the test's side over a stretch of time. A lock's state has no push, so it
 * is sampled; the sampling interval only decides how fast a change is seen, not the outcome.
 */
final class LockWatch {
    private LockWatch() {
    }

    /**
     * @throws AssertionError the first time the lock is seen free during {@code duration}
     */
    static void heldThroughout(DistributedLock lock, Duration duration, Duration every) {
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        while (System.nanoTime() < end) {
            if (!lock.isLocked()) {
                throw new AssertionError("Lock " + lock.getName() + " was free after "
                        + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms of the " + duration.toMillis()
                        + " ms it should have been held");
            }
            pause(every);
        }
    }

    /**
     * @return how long it took until the lock was free
     * @throws AssertionError if it is still held after {@code timeout}
     */
    static Duration awaitFree(DistributedLock lock, Duration timeout) {
        long start = System.nanoTime();
        long end = start + timeout.toNanos();
        while (lock.isLocked()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("Lock " + lock.getName() + " was still held after " + timeout);
            }
            pause(Duration.ofMillis(20));
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static void pause(Duration interval) {
        try {
            TimeUnit.NANOSECONDS.sleep(interval.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
