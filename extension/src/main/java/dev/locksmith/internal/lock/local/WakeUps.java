package dev.locksmith.internal.lock.local;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The count of wake-ups one lock's waiters in this process heard (releases here, release
 * messages, offers), and the sleep of the waiters outside the line (readers) until the next one.
 * Guarded by the mutex of the lock's {@link LocalContention}: the public methods take it, the
 * others run under it.
 */
public final class WakeUps {
    private final ReentrantLock mutex;
    private final Condition released;
    private long count;
    private int readersAsleep;

    WakeUps(ReentrantLock mutex) {
        this.mutex = mutex;
        this.released = mutex.newCondition();
    }

    /**
     * @return how many wake-ups came so far
     */
    public long count() {
        mutex.lock();
        try {
            return count;
        } finally {
            mutex.unlock();
        }
    }

    long countUnderMutex() {
        return count;
    }

    /**
     * Counts a wake-up and wakes the readers; the line's first waiter is the caller's to wake.
     */
    void heard() {
        count++;
        released.signalAll();
    }

    /**
     * Counts an offer to this process: the line's first waiter takes it, the readers sleep on.
     */
    void heardOffer() {
        count++;
    }

    int readersAsleep() {
        return readersAsleep;
    }

    /**
     * A waiter outside the line (a reader) sleeps until any wake-up came since {@code seen} was
     * read, or the timeout.
     */
    public void awaitAfter(long seen, long timeoutNanos, Waiting waiting) throws InterruptedException {
        mutex.lock();
        try {
            long deadline = System.nanoTime() + timeoutNanos;
            long left = timeoutNanos;
            while (count == seen && left > 0) {
                readersAsleep++;
                try {
                    waiting.await(released, left);
                } finally {
                    readersAsleep--;
                }
                left = deadline - System.nanoTime();
            }
        } finally {
            mutex.unlock();
        }
    }
}
