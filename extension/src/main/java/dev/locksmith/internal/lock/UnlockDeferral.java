package dev.locksmith.internal.lock;

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
}
