package dev.locksmith;

/**
 * The kind of lock a {@link Locked} method takes.
 */
public enum LockType {
    /** {@link LockManager#getLock(String)}: exclusive, reentrant, not fair. */
    REENTRANT,
    /** {@link LockManager#getFairLock(String)}: exclusive, reentrant, first come first served across JVMs. */
    FAIR,
    /** The read side of {@link LockManager#getReadWriteLock(String)}: shared with other readers. */
    READ,
    /** The write side of {@link LockManager#getReadWriteLock(String)}: exclusive of readers and writers. */
    WRITE
}
