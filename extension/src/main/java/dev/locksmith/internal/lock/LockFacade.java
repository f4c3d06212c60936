package dev.locksmith.internal.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.internal.config.TimeLimits;
import dev.locksmith.internal.lock.local.Deadline;
import dev.locksmith.internal.lock.local.Waiting;
import dev.locksmith.internal.observe.CallContext;
import dev.locksmith.internal.observe.LockLabel;
import dev.locksmith.internal.observe.LockLabels;
import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.internal.observe.WaitObservation;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * The six ways {@link java.util.concurrent.locks.Lock} acquires, mapped once onto one
 * acquisition for every kind of lock, with their argument checks and interrupt rules:
 * <ul>
 *   <li>{@code lock()} and {@code lock(lease, unit)} wait without limit through interrupts and
 *       restore the interrupt status on return;</li>
 *   <li>{@code tryLock()} makes one attempt whatever the interrupt status, and keeps it;</li>
 *   <li>{@code lockInterruptibly()} and the timed {@code tryLock} throw
 *       {@link InterruptedException} when interrupted before or while waiting.</li>
 * </ul>
 */
abstract class LockFacade implements DistributedLock {
    /** The lease argument that asks for a watchdog-kept lease. */
    static final long WATCHDOG = -1;

    @Override
    public final void lock() {
        acquireUninterruptibly(WATCHDOG);
    }

    @Override
    public final void lock(long leaseTime, TimeUnit unit) {
        acquireUninterruptibly(TimeLimits.leaseMillis(leaseTime, unit, describe(), ""));
    }

    @Override
    public final void lockInterruptibly() throws InterruptedException {
        observed(Deadline.never(), WATCHDOG, Waiting.interruptible());
    }

    @Override
    public final boolean tryLock() {
        Waiting waiting = Waiting.uninterruptible();
        try {
            return observed(Deadline.in(0), WATCHDOG, waiting);
        } catch (InterruptedException e) {
            throw new IllegalStateException("An uninterruptible attempt was interrupted", e);
        } finally {
            waiting.finish();
        }
    }

    @Override
    public final boolean tryLock(long waitTime, TimeUnit unit) throws InterruptedException {
        long waitNanos = TimeLimits.requireUnit(unit, describe()).toNanos(waitTime);
        return observed(Deadline.in(waitNanos), WATCHDOG, Waiting.interruptible());
    }

    @Override
    public final boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        long waitNanos = TimeLimits.requireUnit(unit, describe()).toNanos(waitTime);
        long lease = leaseTime == WATCHDOG ? WATCHDOG
                : TimeLimits.leaseMillis(leaseTime, unit, describe(), "use -1 for a watchdog lease");
        return observed(Deadline.in(waitNanos), lease, Waiting.interruptible());
    }

    @Override
    public final Condition newCondition() {
        throw new UnsupportedOperationException("Distributed locks have no conditions; the " + describe()
                + " cannot create one. Use a queue or pub/sub to signal between processes.");
    }

    private void acquireUninterruptibly(long leaseMillis) {
        Waiting waiting = Waiting.uninterruptible();
        try {
            observed(Deadline.never(), leaseMillis, waiting);
        } catch (InterruptedException e) {
            throw new IllegalStateException("An uninterruptible wait was interrupted", e);
        } finally {
            waiting.finish();
        }
    }

    /**
     * One acquisition, as the manager's observer sees it: a wait with its outcome. It counts as a
     * call under way of the manager, which {@code close()} waits for: a grant that arrives while
     * the manager closes is released by the close, and the caller hears that it closed.
     */
    private boolean observed(Deadline deadline, long leaseMillis, Waiting waiting) throws InterruptedException {
        WaitObservation wait = observer().waitStarted(label(), LockLabels.traced());
        boolean acquired;
        try {
            enterCall();
            try {
                acquired = acquire(deadline, leaseMillis, waiting);
                if (acquired && !managerOpen()) {
                    throw new IllegalStateException("The LockManager of the " + describe() + " closed while it was"
                            + " being acquired; the close released it");
                }
            } finally {
                exitCall();
            }
        } catch (InterruptedException e) {
            wait.interrupted();
            throw e;
        } catch (RuntimeException | Error e) {
            wait.failed(e);
            throw e;
        }
        if (acquired) {
            wait.acquired(grantedToken());
        } else if (CallContext.skipsWhenHeld()) {
            wait.skipped();
            observer().skipped(label());
        } else {
            wait.timedOut();
        }
        return acquired;
    }

    /**
     * Counts an acquisition as under way in the manager(s) of this lock, until {@link #exitCall()}.
     *
     * @throws IllegalStateException if a manager of this lock is closed
     */
    abstract void enterCall();

    abstract void exitCall();

    /**
     * @return false once a manager of this lock began to close
     */
    abstract boolean managerOpen();

    /**
     * @return who is told of this lock's waits
     */
    abstract LockObserver observer();

    /**
     * @return how metrics and spans name this lock
     */
    abstract LockLabel label();

    /**
     * @return the fencing token the current thread holds this lock with, or -1 if it has none
     */
    abstract long grantedToken();

    /**
     * One acquisition. An uninterruptible {@code waiting} never makes it throw
     * {@link InterruptedException}; the caller restores the interrupt status afterwards.
     *
     * @param deadline    when to give up; {@link Deadline#never()} to wait without limit
     * @param leaseMillis the fixed lease in ms, or {@link #WATCHDOG}
     * @param waiting     how interrupts are treated
     * @return true if acquired, false if the deadline passed first
     * @throws InterruptedException if {@code waiting} is interruptible and the thread was interrupted
     */
    abstract boolean acquire(Deadline deadline, long leaseMillis, Waiting waiting) throws InterruptedException;

    /**
     * @return how messages name this lock, such as {@code lock 'orders'}
     */
    abstract String describe();

    @Override
    public String toString() {
        return "DistributedLock[" + describe() + "]";
    }
}
