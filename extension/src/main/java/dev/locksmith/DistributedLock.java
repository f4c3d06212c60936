package dev.locksmith;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A lock shared by every JVM that uses the same Redis and key prefix, with the semantics of
 * {@link java.util.concurrent.locks.ReentrantLock}: the holder may lock again and must unlock as
 * many times; only the holder releases.
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
public interface DistributedLock extends Lock {

    /**
     * @return the name this lock was obtained under
     */
    String getName();

    /**
     * Waits without limit until the lock is acquired; the watchdog keeps the lease while it is held.
     * An interrupt does not stop the wait; the thread's interrupt status is restored on return.
     *
     * @throws LockException if Redis refuses the request (a missing permission, say); a Redis
     *                       that cannot be reached is waited for
     */
    @Override
    void lock();

    /**
     * Waits without limit until the lock is acquired with a fixed lease and no watchdog: the hold
     * expires by itself after {@code leaseTime} unless it is released first.
     *
     * @param leaseTime how long the hold lasts; positive, at most 100 years
     * @param unit      the unit of {@code leaseTime}
     * @throws IllegalArgumentException if {@code leaseTime} is not positive or too long, or {@code unit} is null
     * @throws LockException            if Redis refuses the request
     */
    void lock(long leaseTime, TimeUnit unit);

    /**
     * Like {@link #lock()}, but gives up when the thread is interrupted before the lock is
     * acquired (see the class comment on interrupts).
     *
     * @throws InterruptedException if interrupted before or while waiting; nothing is held then
     */
    @Override
    void lockInterruptibly() throws InterruptedException;

    /**
     * Takes the lock if Redis grants it at once, without waiting: at most one attempt, one round
     * trip for a lock nobody here wants. It makes none, and answers false, when another thread of
     * this manager holds the lock or waits for it ahead of this one. A taken fair lock's attempt
     * joins the queue and leaves it again, a taken write lock's marks and unmarks a waiting
     * writer: one more round trip each.
     *
     * @return true if the lock is now held by the current thread (watchdog lease)
     * @throws LockException if Redis cannot be reached or refuses the request
     */
    @Override
    boolean tryLock();

    /**
     * Waits up to {@code waitTime} for the lock; the watchdog keeps the lease once acquired. A
     * wait of zero or less is {@link #tryLock()}.
     *
     * @param waitTime how long to wait
     * @param unit     the unit of {@code waitTime}
     * @return true if acquired, false if the wait time elapsed first
     * @throws InterruptedException     if interrupted while waiting; nothing is held then
     * @throws IllegalArgumentException if {@code unit} is null
     * @throws LockException            if Redis refuses the request
     */
    @Override
    boolean tryLock(long waitTime, TimeUnit unit) throws InterruptedException;

    /**
     * Waits up to {@code waitTime} for the lock and holds it for {@code leaseTime}.
     *
     * @param waitTime  how long to wait; zero or less is {@link #tryLock()}
     * @param leaseTime how long the hold lasts, or -1 for a watchdog-renewed lease
     * @param unit      the unit of both times
     * @return true if acquired, false if the wait time elapsed first
     * @throws InterruptedException     if interrupted while waiting; nothing is held then
     * @throws IllegalArgumentException if {@code leaseTime} is neither positive nor -1, or too long
     * @throws LockException            if Redis refuses the request
     */
    boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException;

    /**
     * Releases one hold of the current thread; the lock is free when the last hold is released.
     * The last release hands the lock straight to a thread of this manager that waits for it, if
     * one sleeps in its line (the reentrant lock); otherwise it frees it in Redis and wakes the
     * waiters. One round trip either way.
     *
     * @throws IllegalMonitorStateException if the current thread does not hold the lock; nothing changes
     * @throws LockLostException            if the current thread held the lock but lost it (lease
     *                                      expired, forced unlock); the local hold is dropped
     * @throws LockException                if Redis answered the release with an error or not at
     *                                      all. For the last hold, the hold is dropped here and no
     *                                      longer renewed, so the lock frees itself when its lease
     *                                      runs out, at most one lease later; for an earlier hold
     *                                      of a re-entered lock, nothing changed and
     *                                      {@code unlock()} may be called again
     * @throws IllegalStateException        if the {@link LockManager} is closed; closing released
     *                                      every hold
     */
    @Override
    void unlock();

    /**
     * Removes the lock whoever holds it, and wakes its waiters. For operators and tests; a holder
     * that is still working will find the loss on its next {@link #unlock()}.
     *
     * @return true if a hold was removed
     * @throws LockException if Redis cannot be reached
     */
    boolean forceUnlock();

    /**
     * @return true if any thread in any JVM holds the lock now
     */
    boolean isLocked();

    /**
     * @return true if the current thread holds the lock now, as Redis sees it
     */
    boolean isHeldByCurrentThread();

    /**
     * @return the current thread's reentrant hold count, 0 if it holds none or Redis no longer has
     *         its hold (one round trip when it has one)
     */
    int getHoldCount();

    /**
     * @return how long the current lease has left, {@link Duration#ZERO} when not locked (two
     *         round trips)
     * @throws LockException if Redis cannot be reached
     */
    Duration remainingLease();

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

    /**
     * Not supported: a distributed lock has no distributed condition.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    Condition newCondition();
}
