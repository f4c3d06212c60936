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
 * @param takesGrant            whether a grant of the reentrant lock to the owner's process may be
 *                              taken by this request: no thread of the process holds it on the
 *                              grant's word, and none will while this request is under way
 */
public record AcquireRequest(String owner, long leaseMillis, long sinceMillis, String threadName, long counterLifetimeMillis,
                      boolean joinsRing, boolean takesGrant) {
    /**
     * A request that takes no grant.
     */
    public AcquireRequest(String owner, long leaseMillis, long sinceMillis, String threadName,
                          long counterLifetimeMillis, boolean joinsRing) {
        this(owner, leaseMillis, sinceMillis, threadName, counterLifetimeMillis, joinsRing, false);
    }

    /**
     * @return the acquisition's {@code join-ring} argument: {@code g} to join the ring and take a
     *         grant to this process, {@code 1} to join it only, {@code t} to take a grant without
     *         joining (a multi-lock's attempt at every part at once), empty to do neither and ask
     *         to be woken instead
     */
    public String ringArgument() {
        if (joinsRing) {
            return takesGrant ? "g" : "1";
        }
        return takesGrant ? "t" : "";
    }
}
