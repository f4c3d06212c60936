package dev.locksmith;

import java.util.concurrent.locks.ReadWriteLock;

/**
 * A pair of locks under one name: many readers at once, or one writer. A writer may also take
 * the read lock and keep it after releasing the write lock (downgrade). A reader may not take
 * the write lock while it reads (no upgrade): that {@code lock()} throws
 * {@link IllegalMonitorStateException} at once instead of waiting for itself. New readers wait
 * while a writer waits, so a stream of readers cannot starve writers; readers do not wait for
 * each other, in one JVM or across JVMs.
 */
public interface DistributedReadWriteLock extends ReadWriteLock {

    /**
     * @return the shared side: held by many readers at once, never while a writer holds the write lock
     */
    @Override
    DistributedLock readLock();

    /**
     * @return the exclusive side: one writer, and no reader other than that writer itself
     */
    @Override
    DistributedLock writeLock();
}
