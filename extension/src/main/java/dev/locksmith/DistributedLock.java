package dev.locksmith;

/**
 * The lock of one name, shared by every JVM that uses the same Redis and key prefix, with the
 * semantics of {@link java.util.concurrent.locks.ReentrantLock}: the holder may lock again and must
 * unlock as many times; only the holder releases. Besides what every lock does ({@link LeasedLock}),
 * one name has what a set of names has not: a {@link #fencingToken() fencing token}, a
 * {@link #getHoldCount() reentrant count} that Redis keeps, and a state anybody may ask about
 * ({@link #isLocked()}).
 *
 * <p>A hold belongs to the thread that took it. Without an explicit lease, a watchdog renews the
 * lease every third of the configured lease time while the hold lasts; when the JVM dies the
 * lease runs out and Redis frees the lock. With an explicit lease the lock simply expires then.
 *
 * <pre>{@code
 * DistributedLock lock = locks.getLock("invoice:" + id);
 * if (lock.tryLock(5, TimeUnit.SECONDS)) {
 *     try {
 *         ledger.write(entry, lock.fencingToken());
 *     } finally {
 *         lock.unlock();
 *     }
 * }
 * }</pre>
 *
 * <p>Every method throws {@link LockException} when Redis cannot be reached or does not answer
 * in time, and {@link IllegalStateException} once its {@link LockManager} is closed.
 *
 * <p><b>Redis round trips.</b> An acquisition of a free lock is one round trip (with
 * {@link RedisMode#REDLOCK}, one to every master at once). While the lock is taken, the threads
 * of one manager that want the reentrant lock or the write lock wait in a line, and only the first
 * asks Redis; while another thread of the same manager holds the lock, not even the first asks,
 * and that thread's release hands the lock straight to it (one round trip for both). Readers and
 * fair-lock waiters each ask Redis on their own. Between attempts a thread sleeps until Redis
 * publishes a release, a release in this process wakes it, or the holder's lease runs out: it
 * never polls; its first wait also subscribes to the lock's release channel (one round trip).
 * A re-entry, an {@link #unlock()}, {@link #isLocked()} and {@link #forceUnlock()} are one round
 * trip each; {@link #getHoldCount()} and {@link #isHeldByCurrentThread()} are one when the thread
 * has a hold (Redis confirms it) and none otherwise; {@link #remainingLease()} is two.
 * {@link #fencingToken()} needs none (the holder knows), except the first one of a RedLock hold,
 * which tells the masters. Lease renewal is the watchdog's: one round trip per server every third
 * of the lease, for all of a manager's holds together.
 *
 * <p><b>Interrupts.</b> A round trip under way is never abandoned (a sent acquisition may have
 * been granted): an interrupt takes effect when its answer is in, or while the thread sleeps.
 * A thread that an acquisition or a hand-over from another thread of its manager made the holder
 * meanwhile returns holding the lock, with its interrupt status still set.
 */
public interface DistributedLock extends LeasedLock {

    /**
     * @return true if any thread in any JVM holds the lock now
     */
    boolean isLocked();

    /**
     * @return the current thread's reentrant hold count, 0 if it holds none or Redis no longer has
     *         its hold (one round trip when it has one)
     */
    int getHoldCount();

    /**
     * A number that strictly increases with every new acquisition of this name across all JVMs;
     * reentrant holds keep their token. Hand it to the resource you protect so it can reject
     * writes from a holder that has since lost the lock.
     *
     * @return the fencing token of the current thread's hold
     * @throws IllegalMonitorStateException if the current thread does not hold the lock
     * @throws LockLostException            if the hold was lost: its token is stale
     */
    long fencingToken();
}
