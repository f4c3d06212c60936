package dev.locksmith.internal.lock.kind;

/**
 * How the threads of one process wait for a lock of a kind ({@link LockKind#waiting()}); the
 * acquisition turns it into the wait itself.
 */
public enum WaitStyle {
    /** In arrival order, where only the first asks Redis and a release here may hand the lock over. */
    IN_LINE,
    /** Each on its own, asking Redis, so that holders of one side (readers) hold together. */
    ALONE,
    /** In Redis's fair queue, across processes, woken by name. */
    IN_QUEUE
}
