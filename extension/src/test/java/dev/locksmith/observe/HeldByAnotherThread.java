package dev.locksmith.observe;

import dev.locksmith.DistributedLock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A lock held by a thread of its own until closed, so the test thread can find it taken.
 */
final class HeldByAnotherThread implements AutoCloseable {
    private final CountDownLatch release = new CountDownLatch(1);
    private final Thread holder;

    private HeldByAnotherThread(DistributedLock lock, CountDownLatch held) {
        holder = new Thread(() -> {
            lock.lock();
            held.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        }, "holder of " + lock.getName());
    }

    /**
     * @return once the other thread holds {@code lock}
     * @throws AssertionError if it did not get it within 10 s
     */
    static HeldByAnotherThread hold(DistributedLock lock) throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        HeldByAnotherThread holding = new HeldByAnotherThread(lock, held);
        holding.holder.start();
        if (!held.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("another thread did not get " + lock.getName() + " within 10 s");
        }
        return holding;
    }

    /**
     * Releases the lock and waits until the holding thread ended.
     */
    @Override
    public void close() throws InterruptedException {
        release.countDown();
        holder.join(10_000);
    }
}
