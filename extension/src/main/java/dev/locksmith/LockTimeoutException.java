package dev.locksmith;

/**
 * A lock was not acquired within the wait time, for example by a {@link Locked} method or by
 * {@link LockManager#callWithLock}. Nothing ran under the lock.
 */
public class LockTimeoutException extends LockException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message which lock, and how long the caller waited
     */
    public LockTimeoutException(String message) {
        super(message);
    }

    /**
     * @param lockName the lock that was not acquired
     * @param message  which lock, and how long the caller waited
     */
    public LockTimeoutException(String lockName, String message) {
        super(lockName, message, null);
    }
}
