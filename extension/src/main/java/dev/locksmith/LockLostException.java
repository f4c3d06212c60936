package dev.locksmith;

/**
 * A lock the caller held is no longer its own: the lease expired (the process paused, the
 * watchdog could not reach Redis, a fixed lease ran out) or someone called
 * {@link DistributedLock#forceUnlock()}. Whatever the caller did after the loss was not
 * protected by the lock; a resource that checks {@link DistributedLock#fencingToken() fencing
 * tokens} will have rejected it.
 */
public class LockLostException extends LockException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message which lock was lost and what the caller was doing
     */
    public LockLostException(String message) {
        super(message);
    }
}
