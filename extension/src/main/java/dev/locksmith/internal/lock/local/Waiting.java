package dev.locksmith.internal.lock.local;

import java.util.concurrent.locks.Condition;

/**
 * How one acquisition treats interrupts. An interruptible one gives up with
 * {@link InterruptedException}, at the start or while waiting. An uninterruptible one keeps
 * waiting, remembers the interrupt, and restores the thread's interrupt status when
 * {@link #finish()} is called at the end of the acquisition.
 */
public final class Waiting {
    private final boolean interruptible;
    private boolean interrupted;

    private Waiting(boolean interruptible) {
        this.interruptible = interruptible;
    }

    public static Waiting interruptible() {
        return new Waiting(true);
    }

    public static Waiting uninterruptible() {
        return new Waiting(false);
    }

    boolean isInterruptible() {
        return interruptible;
    }

    public void checkInterrupt() throws InterruptedException {
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException("Interrupted while waiting for a distributed lock");
        }
    }

    /**
     * Awaits {@code condition}, whose lock the caller holds, for at most {@code nanos}.
     */
    void await(Condition condition, long nanos) throws InterruptedException {
        try {
            condition.awaitNanos(nanos);
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
    public void finish() {
        if (interrupted) {
            interrupted = false;
            Thread.currentThread().interrupt();
        }
    }
}
