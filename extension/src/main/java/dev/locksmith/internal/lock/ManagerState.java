package dev.locksmith.internal.lock;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether a manager is still open; every lock of the manager asks before it talks to Redis.
 */
final class ManagerState {
    private final AtomicBoolean closed = new AtomicBoolean();

    void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("This LockManager is closed; build a new one with Locksmith.builder()"
                    + " (or let CDI inject the application's)");
        }
    }

    /**
     * @return true the first time only
     */
    boolean close() {
        return closed.compareAndSet(false, true);
    }
}
