package dev.locksmith.internal.lock;

import dev.locksmith.internal.config.Durations;
import dev.locksmith.internal.config.TimeLimits;
import dev.locksmith.internal.observe.CallContext;
import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockTimeoutException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Runs an action while holding a lock: the one path behind {@code LockManager.callWithLock} and
 * {@code @Locked}. It acquires within the wait time, runs the action, then releases the lock or
 * hands the release to the current transaction. The action's own exception always wins: a
 * release that fails after it (a lost lock) is attached to it as suppressed. After an action that
 * returned normally, a failed release is thrown, because the work it protected was not protected
 * to the end.
 */
public final class GuardedCall {
    private final DistributedLock lock;
    private final Duration waitTime;
    private final Duration leaseTime;
    private final String where;
    private final String template;

    /**
     * @param lock      the lock to hold
     * @param waitTime  how long to wait for it
     * @param leaseTime a fixed lease, or null for a watchdog-kept one
     * @param where     names the caller in messages, such as {@code @Locked("stock:{sku}") on Shop#reserve(String sku)};
     *                  null for a plain {@code callWithLock}
     * @param template  names the lock in metrics and spans, such as {@code stock:{sku}}; null to let
     *                  the configured name patterns decide
     */
    public GuardedCall(DistributedLock lock, Duration waitTime, Duration leaseTime, String where, String template) {
        this.lock = lock;
        this.waitTime = waitTime;
        this.leaseTime = leaseTime;
        this.where = where;
        this.template = template;
    }

    /**
     * @param deferral decides whether the release waits for the current transaction
     * @param action   what to run while holding the lock
     * @param <T>      what it returns
     * @return what it returned
     * @throws LockTimeoutException  if the lock was not acquired within the wait time
     * @throws InterruptedException  if interrupted while waiting, for a plain {@code callWithLock};
     *                               {@code @Locked} gets a {@link LockException} instead, with
     *                               the interrupt status kept
     * @throws Exception             whatever the action threw
     */
    public <T> T call(UnlockDeferral deferral, Callable<T> action) throws Exception {
        CallContext.during(template, () -> {
            acquire();
            return null;
        });
        T result;
        try {
            result = action.call();
        } catch (Throwable failure) {
            try {
                release(deferral);
            } catch (RuntimeException releaseFailure) {
                failure.addSuppressed(releaseFailure);
            }
            throw failure;
        }
        // A lost lock surfaces here (LockLostException): the caller's work was not protected.
        release(deferral);
        return result;
    }

    private void acquire() throws InterruptedException {
        boolean acquired;
        long waitNanos = TimeLimits.waitNanos(waitTime, "lock '" + lock.getName() + "'");
        try {
            acquired = leaseTime == null
                    ? lock.tryLock(waitNanos, TimeUnit.NANOSECONDS)
                    : lock.tryLock(waitNanos, leaseTime.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            if (where == null) {
                throw e;
            }
            Thread.currentThread().interrupt();
            throw new LockException(lock.getName(), where + ": interrupted while waiting for lock '" + lock.getName() + "'", e);
        } catch (IllegalMonitorStateException e) {
            // A read-to-write upgrade, refused at once by the lock: say which method asked.
            throw where == null ? e : new IllegalMonitorStateException(where + ": " + e.getMessage());
        }
        if (!acquired) {
            throw new LockTimeoutException(lock.getName(), "Lock '" + lock.getName() + "' was not acquired within "
                    + Durations.format(waitTime) + (where == null ? "" : " (" + where + ")"));
        }
    }

    private void release(UnlockDeferral deferral) {
        if (!deferral.defer(lock)) {
            lock.unlock();
        }
    }
}
