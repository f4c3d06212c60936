package dev.locksmith.internal.lock;

import dev.locksmith.internal.config.LockSettings;
import dev.locksmith.internal.lease.LeaseKeeper;
import dev.locksmith.internal.lock.local.ContentionRegistry;
import dev.locksmith.internal.lock.local.ManagerState;
import dev.locksmith.internal.observe.LockLabels;
import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.internal.store.LockStore;
import dev.locksmith.internal.store.RedisReplies;

/**
 * What every lock of one manager works with, made once by {@link DefaultLockManager}.
 *
 * @param settings   the manager's settings
 * @param store      where the locks live
 * @param replies    how to wait for Redis's answers
 * @param leases     the holds and their leases
 * @param contention the threads of this process waiting for each lock
 * @param owners     owner and request ids
 * @param state      whether the manager is still open
 * @param observer   told of waits, holds and losses
 * @param labels     how locks are named in metrics and spans
 * @param process    how this process describes itself ({@link ProcessDescription}), for a job's last run
 */
record LockContext(LockSettings settings, LockStore store, RedisReplies replies, LeaseKeeper leases,
                   ContentionRegistry contention, OwnerIds owners, ManagerState state, LockObserver observer,
                   LockLabels labels, String process) {
}
