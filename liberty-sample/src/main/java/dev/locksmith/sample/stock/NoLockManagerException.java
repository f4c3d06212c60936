package dev.locksmith.sample.stock;

/**
 * No {@code LockManager} bean can be injected: the Locksmith CDI extension is not in the
 * application. Answered as HTTP 503 {@code NO_LOCK_MANAGER}.
 */
public class NoLockManagerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoLockManagerException() {
        super("No LockManager bean: the Locksmith CDI extension (dev.locksmith:locksmith in WEB-INF/lib)"
                + " is missing or did not start; see the server's messages.log");
    }
}
