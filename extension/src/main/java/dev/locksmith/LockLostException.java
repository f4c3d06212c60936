package dev.locksmith;

/**
 * A lock the caller held is no longer its own: the lease expired (the process paused, the
 * watchdog could not reach Redis, a fixed lease ran out) or someone called
 * {@link DistributedLock#forceUnlock()}. Whatever the caller did after the loss was not
 * protected by the lock; a resource that checks {@link DistributedLock#fencingToken() fencing
 * tokens} will have rejected it.
 *
 * <p>Inside a JTA transaction the loss is found before commit and fails it: the caller of a CDI
 * bean gets a {@code jakarta.transaction.RollbackException} whose cause is this exception; the
 * caller of a session bean gets an {@code EJBTransactionRolledbackException} with the same chain.
 */
public class LockLostException extends LockException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message which lock was lost and what the caller was doing
     */
    public LockLostException(String message) {
        super(message);
    }

    /**
     * @param lockName the lock that was lost, or null if several were
     * @param message  which lock was lost and what the caller was doing
     */
    public LockLostException(String lockName, String message) {
        super(lockName, message, null);
    }
}
