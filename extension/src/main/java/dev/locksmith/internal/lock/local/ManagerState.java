package dev.locksmith.internal.lock.local;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Whether a manager is open, and the calls of its locks under way: the barrier that
 * {@code close()} passes only once no acquisition or release of the manager is still running,
 * so that whatever they were granted is known to the lease keeper when it releases every hold.
 *
 * <p>Threads: every caller of a lock enters and exits around an acquisition or a release; the
 * closing thread closes, then waits for the count to reach zero.
 */
public final class ManagerState {
    private final AtomicInteger running = new AtomicInteger();
    private final ReentrantLock mutex = new ReentrantLock();
    private final Condition idle = mutex.newCondition();
    private volatile boolean closed;

    /**
     * @throws IllegalStateException if the manager is closed
     */
    public void checkOpen() {
        if (closed) {
            throw closedError();
        }
    }

    public boolean isOpen() {
        return !closed;
    }

    /**
     * Counts a call of a lock as running until {@link #exit()}.
     *
     * @throws IllegalStateException if the manager is closed; the call is not counted then
     */
    public void enter() {
        running.incrementAndGet();
        if (closed) {
            exit();
            throw closedError();
        }
    }

    public void exit() {
        if (running.decrementAndGet() == 0 && closed) {
            mutex.lock();
            try {
                idle.signalAll();
            } finally {
                mutex.unlock();
            }
        }
    }

    /**
     * Refuses every call from now on.
     *
     * @return true the first time only
     */
    public boolean close() {
        mutex.lock();
        try {
            if (closed) {
                return false;
            }
            closed = true;
            return true;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Waits until no call that entered before {@link #close()} is still running.
     *
     * @return how many still run when {@code nanos} passed, 0 when none
     */
    public int awaitIdle(long nanos) {
        long deadline = System.nanoTime() + nanos;
        boolean interrupted = false;
        mutex.lock();
        try {
            while (running.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return running.get();
                }
                try {
                    idle.awaitNanos(left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return 0;
        } finally {
            mutex.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static IllegalStateException closedError() {
        return new IllegalStateException("This LockManager is closed; build a new one with Locksmith.builder()"
                + " (or let CDI inject the application's)");
    }
}
