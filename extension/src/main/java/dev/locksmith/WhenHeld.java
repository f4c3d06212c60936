package dev.locksmith;

/**
 * What a {@link Locked @Locked} call (or {@link LockManager#callWithLock(String, CallOptions, java.util.concurrent.Callable)})
 * does when the lock is not free within its wait time.
 */
public enum WhenHeld {
    /** Throw {@link LockTimeoutException}: the call needed the lock, and the caller must hear it did not run. */
    FAIL,
    /**
     * Do not run the method and return normally: for a scheduled job that another server runs, or
     * ran, in this slot. A {@code void} method returns; a method returning {@link java.util.Optional}
     * returns {@code Optional.empty()}; any other method returns {@code null} (one returning a
     * primitive is refused at deployment). Nothing is thrown into the timer service. The skip is
     * logged at DEBUG (logger {@code dev.locksmith.skipped}), recorded as the wait outcome
     * {@code skipped} in the metrics, and as a {@code dev.locksmith.LockSkipped} Flight Recorder event.
     */
    SKIP
}
