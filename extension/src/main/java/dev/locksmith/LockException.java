package dev.locksmith;

import jakarta.ejb.ApplicationException;

/**
 * Base of every exception Locksmith throws: Redis unreachable, a command timed out, a script
 * failed. The cause, when there is one, is the underlying client or server error.
 *
 * <p>It is an EJB application exception, inherited by every subclass: when a {@link Locked}
 * method of a session bean throws one, the caller gets the exception itself, not an
 * {@code EJBException} around it, and the container rolls back the transaction it started for
 * the call. Servers without Enterprise Beans ignore the annotation.
 */
@ApplicationException(inherited = true, rollback = true)
public class LockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The one lock this is about, or null. */
    private final String lockName;

    /**
     * @param message what went wrong and, where possible, how to fix it
     */
    public LockException(String message) {
        this(null, message, null);
    }

    /**
     * @param message what went wrong and, where possible, how to fix it
     * @param cause   the underlying error
     */
    public LockException(String message, Throwable cause) {
        this(null, message, cause);
    }

    /**
     * @param lockName the name of the lock this is about, or null if it is about none or several
     * @param message  what went wrong and, where possible, how to fix it
     * @param cause    the underlying error, or null
     */
    public LockException(String lockName, String message, Throwable cause) {
        super(message, cause);
        this.lockName = lockName;
    }

    /**
     * @return the name of the lock this is about, such as {@code stock:42} for a {@code @Locked("stock:{sku}")}
     *         call; null when it is about no single lock (connecting to Redis, several locks at once)
     */
    public String lockName() {
        return lockName;
    }
}
