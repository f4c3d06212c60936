package dev.locksmith;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * What every Locksmith lock does, whether it stands for one lock name ({@link DistributedLock}) or
 * for several taken together ({@link DistributedMultiLock}): take it with one of the six ways of
 * {@link Lock}, release it, ask whether the current thread holds it and how long its lease has
 * left, and remove it by force. A hold belongs to the thread that took it and is kept in Redis
 * under a lease: without an explicit lease a watchdog renews it every third of the configured
 * lease time while the hold lasts; with an explicit lease it simply expires then. When the JVM
 * dies the lease runs out and Redis frees the lock.
 *
 * <p>What only a single name has, a fencing token, a reentrant count Redis keeps and whether
 * anybody holds it, is on {@link DistributedLock}; what a multi-lock has instead (the tokens of
 * its locks, its own reentrant count) is on {@link DistributedMultiLock}.
 *
 * <p>Every method throws {@link LockException} when Redis cannot be reached or does not answer
 * in time, and {@link IllegalStateException} once its {@link LockManager} is closed. On interrupts
 * and Redis round trips, see {@link DistributedLock}.
 */
public interface LeasedLock extends Lock {

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
     * acquired (see {@link DistributedLock} on interrupts).
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
     * Removes the lock whoever holds it, and wakes its waiters; a multi-lock removes each of its
     * locks. For operators and tests; a holder that is still working will find the loss on its next
     * {@link #unlock()}.
     *
     * @return true if a hold was removed (of any of a multi-lock's locks)
     * @throws LockException if Redis cannot be reached
     */
    boolean forceUnlock();

    /**
     * @return true if the current thread holds the lock now, as Redis sees it; for a multi-lock,
     *         every one of its locks
     */
    boolean isHeldByCurrentThread();

    /**
     * @return how long the current lease has left, {@link Duration#ZERO} when not locked (two
     *         round trips); for a multi-lock the shortest of its locks' leases, when it stops
     *         holding all of them, and {@link Duration#ZERO} when one of them is not locked
     * @throws LockException if Redis cannot be reached
     */
    Duration remainingLease();

    /**
     * Not supported: a distributed lock has no distributed condition.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    Condition newCondition();
}
