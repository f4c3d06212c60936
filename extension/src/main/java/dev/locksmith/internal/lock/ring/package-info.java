/**
 * The wait between processes: this process's seat in the ring of processes waiting for a
 * reentrant or write lock ({@code ProcessRing}), the offers a release makes to
 * the next process (for the reentrant lock, grants that carry the taker's fencing token), whether a
 * grant heard may be trusted before Redis confirms it ({@code GrantTrust}),
 * the attempt sent on hearing one ({@code OfferAttempt}), and the desk that
 * passes on offers nobody here takes and watches those a release here made until they are taken
 * ({@code OfferDesk}, {@code OfferWatch}). The seat is guarded by the mutex of the lock's line in
 * {@code internal.lock.local}; offers arrive on the Redis pub/sub thread, the watch's checks run
 * on the manager's scheduler.
 */
package dev.locksmith.internal.lock.ring;
