package dev.locksmith.internal.lock.call;

import dev.locksmith.DistributedLock;

/**
 * Decides, at the moment a lock would be released, whether the release waits: inside a JTA
 * transaction it waits until the transaction completes. Set on a {@link DefaultLockManager}
 * with {@link DefaultLockManager#deferUnlocksWith(UnlockDeferral)}.
 */
@FunctionalInterface
public interface UnlockDeferral {

    /** Never defers: every release happens at once. */
    UnlockDeferral NONE = lock -> false;

    /**
     * Called on the thread that holds {@code lock}, where it would unlock it.
     *
     * @param lock a lock the current thread holds once more than before the guarded work
     * @return true if this deferral took over one release of that hold; false to unlock now
     */
    boolean defer(DistributedLock lock);

    /**
     * Called on the thread that holds {@code lock}, inside a transaction that began after the lock
     * was taken (a {@code @Transactional} method under {@code @Locked}): the lock is checked, and
     * its lease extended, before that transaction commits, and a lost lock fails the commit. The
     * release itself stays with the caller, after the commit.
     *
     * @param lock a lock the current thread holds
     */
    default void watchUntilCompletion(DistributedLock lock) {
    }
}
