package dev.locksmith.internal.cdi;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.internal.lock.UnlockDeferral;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs one call of a {@code @Locked} method: takes the lock its operation names, runs the call,
 * and releases the lock when the call ends, or hands the release to the current transaction.
 */
final class LockedCall {
    /** The locks of the {@code @Locked} calls running on this thread, innermost first. */
    private static final ThreadLocal<Deque<DistributedLock>> CALLS_ON_THIS_THREAD = new ThreadLocal<>();

    private LockedCall() {
    }

    /**
     * @return the lock of the innermost {@code @Locked} call running on this thread, or null
     */
    static DistributedLock innermostLock() {
        Deque<DistributedLock> calls = CALLS_ON_THIS_THREAD.get();
        return calls == null ? null : calls.peek();
    }

    /**
     * @param locks     the application's manager
     * @param deferral  decides whether the release waits for a transaction; read after the lock
     *                  is taken, when the manager bean surely exists
     * @param operation the resolved {@code @Locked} use
     * @param arguments the call's arguments, for the lock name
     * @param call      the rest of the invocation
     * @return what the call returned
     * @throws LockTimeoutException if the lock was not acquired within the wait time
     * @throws Exception            whatever the call threw; the lock is released either way
     */
    static Object run(LockManager locks, Supplier<UnlockDeferral> deferral, LockedOperation operation, Object[] arguments,
                      Callable<Object> call) throws Exception {
        String name = operation.lockName(arguments);
        DistributedLock lock = lockOf(locks, operation, name);
        acquire(lock, operation, name);
        Object result;
        enter(lock);
        try {
            result = call.call();
        } catch (Throwable failure) {
            leave();
            try {
                release(lock, deferral);
            } catch (RuntimeException releaseFailure) {
                failure.addSuppressed(releaseFailure);
            }
            throw failure;
        }
        leave();
        // A lost lock surfaces here (LockLostException): the caller's work was not protected.
        release(lock, deferral);
        return result;
    }

    private static void enter(DistributedLock lock) {
        Deque<DistributedLock> calls = CALLS_ON_THIS_THREAD.get();
        if (calls == null) {
            calls = new ArrayDeque<>(2);
            CALLS_ON_THIS_THREAD.set(calls);
        }
        calls.push(lock);
    }

    private static void leave() {
        Deque<DistributedLock> calls = CALLS_ON_THIS_THREAD.get();
        calls.pop();
        if (calls.isEmpty()) {
            // Pooled server threads must not keep the application's objects alive.
            CALLS_ON_THIS_THREAD.remove();
        }
    }

    private static DistributedLock lockOf(LockManager locks, LockedOperation operation, String name) {
        return switch (operation.type()) {
            case REENTRANT -> locks.getLock(name);
            case FAIR -> locks.getFairLock(name);
            case READ -> locks.getReadWriteLock(name).readLock();
            case WRITE -> locks.getReadWriteLock(name).writeLock();
        };
    }

    private static void acquire(DistributedLock lock, LockedOperation operation, String name) {
        boolean acquired;
        long waitNanos = operation.waitTime().toNanos();
        try {
            acquired = operation.leaseTime() == null
                    ? lock.tryLock(waitNanos, TimeUnit.NANOSECONDS)
                    : lock.tryLock(waitNanos, operation.leaseTime().toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockException(operation.where() + ": interrupted while waiting for lock '" + name + "'", e);
        } catch (IllegalMonitorStateException e) {
            // A read-to-write upgrade, refused at once by the lock: say which method asked.
            throw new IllegalMonitorStateException(operation.where() + ": " + e.getMessage());
        }
        if (!acquired) {
            throw new LockTimeoutException("Lock '" + name + "' was not acquired within "
                    + Durations.format(operation.waitTime()) + " (" + operation.where() + ")");
        }
    }

    private static void release(DistributedLock lock, Supplier<UnlockDeferral> deferral) {
        if (!deferral.get().defer(lock)) {
            lock.unlock();
        }
    }
}
