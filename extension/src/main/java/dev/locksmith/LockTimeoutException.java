package dev.locksmith;

/**
 * A lock was not acquired within the wait time, for example by a {@link Locked} method or by
 * {@link LockManager#callWithLock}.
 */
public class LockTimeoutException extends LockException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message which lock, and how long the caller waited
     */
    public LockTimeoutException(String message) {
        super(message);
    }
}
