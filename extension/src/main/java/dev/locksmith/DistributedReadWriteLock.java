package dev.locksmith;

import java.util.concurrent.locks.ReadWriteLock;

/**
 * A pair of locks under one name: many readers at once, or one writer. A writer may also take
 * the read lock and keep it after releasing the write lock (downgrade).
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
