package dev.locksmith.it;

import dev.locksmith.DistributedLock;
import dev.locksmith.testing.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Watches a lock from the test's side over a stretch of time. A lock's state has no push, so
 * {@link #heldThroughout} samples it for the whole stretch; the sampling interval only decides
 * how fast a change is seen, not the outcome.
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
     * @throws IllegalStateException if it is still held after {@code timeout}
     */
    static Duration awaitFree(DistributedLock lock, Duration timeout) {
        return Await.until("lock " + lock.getName() + " is free", timeout, () -> !lock.isLocked());
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
