package dev.locksmith.internal.lock;

/**
 * One owner's request for a first hold.
 *
 * @param owner                 who asks
 * @param leaseMillis           the lease
 * @param sinceMillis           when it asks, on this process's clock: shown by inspection
 * @param threadName            the thread that asks: shown by inspection
 * @param counterLifetimeMillis how long a fencing counter lives from its (re)seeding
 */
record AcquireRequest(String owner, long leaseMillis, long sinceMillis, String threadName, long counterLifetimeMillis) {
}
