package dev.locksmith.internal.lock.kind;

/**
 * One owner's request for a first hold.
 *
 * @param owner                 who asks
 * @param leaseMillis           the lease
 * @param sinceMillis           when it asks, on this process's clock: shown by inspection
 * @param threadName            the thread that asks: shown by inspection
 * @param counterLifetimeMillis how long a fencing counter lives from its (re)seeding
 * @param joinsRing             whether the owner's process, listening on its own channel, enters the
 *                              ring of waiting processes when the lock is taken (the reentrant lock
 *                              on one deployment), instead of asking to be woken with everyone
 */
public record AcquireRequest(String owner, long leaseMillis, long sinceMillis, String threadName, long counterLifetimeMillis,
                      boolean joinsRing) {
}
