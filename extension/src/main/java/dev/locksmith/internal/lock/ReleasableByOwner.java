package dev.locksmith.internal.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockLostException;
import dev.locksmith.internal.lease.Hold;

/**
 * A lock whose hold can be released later by its recorded owner, from any thread: what the
 * transaction support needs to release after a transaction completes, which may happen on
 * another thread than the one that locked (a transaction timeout).
 */
public interface ReleasableByOwner extends DistributedLock {

    /**
     * @return the current thread's hold of this lock, or null when it holds none
     */
    Hold currentHold();

    /**
     * Releases one hold by its recorded owner, whichever thread calls.
     *
     * @param hold a hold of this lock, from {@link #currentHold()}
     * @return the holds of that owner left
     * @throws LockLostException if Redis no longer had the hold
     */
    int release(Hold hold);
}
