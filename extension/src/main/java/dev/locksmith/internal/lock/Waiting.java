package dev.locksmith.internal.lock;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * How one acquisition treats interrupts: {@link #INTERRUPTIBLE} gives up with
 * {@link InterruptedException}; {@link #uninterruptible()} keeps waiting and restores the
 * interrupt status at the end ({@link #finish()}).
 */
final class Waiting {
    static final Waiting INTERRUPTIBLE = new Waiting(true);

    private final boolean interruptible;
    private boolean interrupted;

    private Waiting(boolean interruptible) {
        this.interruptible = interruptible;
    }

    static Waiting uninterruptible() {
        return new Waiting(false);
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

    /**
     * A timed wait is always interruptible: only lock() waits uninterruptibly, and it waits without limit.
     */
    boolean tryAcquire(Semaphore semaphore, long nanos) throws InterruptedException {
        return semaphore.tryAcquire(Math.max(0, nanos), TimeUnit.NANOSECONDS);
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

    void finish() {
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
