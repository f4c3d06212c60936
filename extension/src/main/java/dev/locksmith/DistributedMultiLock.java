package dev.locksmith;

import java.util.List;

/**
 * Several locks taken as one: {@link #lock()} and {@link #tryLock(long, java.util.concurrent.TimeUnit)}
 * take all of them within the wait time, or none, and {@link #unlock()} releases all of them. It
 * never waits for one lock while holding another, so two multi-locks over overlapping sets, taken
 * in opposite orders, cannot deadlock. Obtained from {@link LockManager#getMultiLockOf(DistributedLock...)}.
 *
 * <p>A set of names has no single fencing token: each of its locks has its own, strictly
 * increasing per name, and each protected resource checks the token of its own lock
 * ({@link #fencingTokens()}). The reentrant count is the multi-lock's own: how often the current
 * thread took this multi-lock and has not yet released it.
 *
 * <pre>{@code
 * DistributedMultiLock both = locks.getMultiLockOf(locks.getLock("account:" + from), locks.getLock("account:" + to));
 * if (both.tryLock(5, TimeUnit.SECONDS)) {
 *     try {
 *         List<Long> tokens = both.fencingTokens();          // in the order of locks()
 *         ledger.debit(from, amount, tokens.get(0));
 *         ledger.credit(to, amount, tokens.get(1));
 *     } finally {
 *         both.unlock();
 *     }
 * }
 * }</pre>
 */
public interface DistributedMultiLock extends LeasedLock {

    /**
     * @return the locks it takes together, in the order given (a multi-lock given among them
     *         contributes its own locks in its place)
     */
    List<DistributedLock> locks();

    /**
     * The fencing token of each of its locks, as {@link DistributedLock#fencingToken()} answers it:
     * one per lock, in the order of {@link #locks()}. Each strictly increases with every new
     * acquisition of its own name; a re-entry of the multi-lock keeps them.
     *
     * @return the current thread's tokens, one per lock
     * @throws IllegalMonitorStateException if the current thread does not hold one of the locks
     * @throws LockLostException            if the hold of one of the locks was lost: its token is stale
     */
    List<Long> fencingTokens();

    /**
     * @return how often the current thread took this multi-lock and has not yet released it; 0
     *         when it holds none, or when Redis no longer has the hold of one of its locks (one
     *         round trip per lock while it holds it)
     */
    int getHoldCount();
}
