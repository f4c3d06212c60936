package dev.locksmith;

/**
 * Base of every exception Locksmith throws: Redis unreachable, a command timed out, a script
 * failed. The cause, when there is one, is the underlying client or server error.
 */
public class LockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong and, where possible, how to fix it
     */
    public LockException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong and, where possible, how to fix it
     * @param cause   the underlying error
     */
    public LockException(String message, Throwable cause) {
        super(message, cause);
    }
}
