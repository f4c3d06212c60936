package dev.locksmith.internal.lock;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * How one acquisition treats interrupts. An interruptible one gives up with
 * {@link InterruptedException}, at the start or while waiting. An uninterruptible one keeps
 * waiting, remembers the interrupt, and restores the thread's interrupt status when
 * {@link #finish()} is called at the end of the acquisition.
 */
final class Waiting {
    private final boolean interruptible;
    private boolean interrupted;

    private Waiting(boolean interruptible) {
        this.interruptible = interruptible;
    }

    static Waiting interruptible() {
        return new Waiting(true);
    }

    static Waiting uninterruptible() {
        return new Waiting(false);
    }

    boolean isInterruptible() {
        return interruptible;
    }

    void checkInterrupt() throws InterruptedException {
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException("Interrupted while waiting for a distributed lock");
        }
    }

    void acquire(Semaphore semaphore) throws InterruptedException {
        if (interruptible) {
            semaphore.acquire();
        } else {
            semaphore.acquireUninterruptibly();
        }
    }

    boolean tryAcquire(Semaphore semaphore, Deadline deadline) throws InterruptedException {
        while (true) {
            try {
                return semaphore.tryAcquire(Math.max(0, deadline.remainingNanos()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                if (interruptible) {
                    throw e;
                }
                interrupted = true;
            }
        }
    }

    /**
     * Object.wait on {@code monitor}, which the caller has synchronized on.
     */
    void waitOn(Object monitor, long nanos) throws InterruptedException {
        try {
            TimeUnit.NANOSECONDS.timedWait(monitor, nanos);
        } catch (InterruptedException e) {
            if (interruptible) {
                throw e;
            }
            interrupted = true;
        }
    }

    /**
     * Restores the interrupt status an uninterruptible wait swallowed.
     */
    void finish() {
        if (interrupted) {
            interrupted = false;
            Thread.currentThread().interrupt();
        }
    }
}
