package dev.locksmith;

import java.util.List;
import java.util.Optional;

/**
 * What Redis knows about one lock name now: who holds it, since when, and how many wait; or, while
 * nobody holds it, for which waiting process it is reserved. One lock name can have several
 * holders only as readers of a read/write lock. See {@link LockManager#describe(String)}.
 *
 * @param name             the lock's name
 * @param holders          every current holder of any kind of lock of that name; empty when free
 * @param waitingInQueue   waiters Redis counts one by one: fair-lock waiters and writers waiting
 *                         for a read/write lock, from every process
 * @param waitingProcesses processes with at least one thread waiting to be woken by this lock's
 *                         release (each process listens once, however many threads wait)
 * @param lastRun          the latest run of the job of this name (a call that skips when held, or
 *                         keeps a minimum hold), while Redis remembers it: a job not named apart
 *                         runs under the lock of its name, a job named apart ({@link Locked#job()})
 *                         under any lock, such as one per slot; empty for other names
 * @param offer            the offer that reserves the reentrant lock or the write lock for one waiting
 *                         process while nobody holds it (between a release and the next holder's
 *                         acquisition); empty when no offer stands. While it stands, {@link #holders()}
 *                         is empty and yet no other process can take the lock. Should both the
 *                         reentrant lock and the read/write lock of this name stand offered, this is
 *                         the reentrant lock's offer
 */
public record LockInfo(String name, List<LockHolder> holders, int waitingInQueue, int waitingProcesses,
                       Optional<LastRun> lastRun, Optional<LockOffer> offer) {

    /**
     * @param name             the lock's name
     * @param holders          its holders
     * @param waitingInQueue   queued waiters
     * @param waitingProcesses processes waiting
     * @param lastRun          the latest recorded run
     * @param offer            the standing offer
     */
    public LockInfo {
        holders = List.copyOf(holders);
        lastRun = lastRun == null ? Optional.empty() : lastRun;
        offer = offer == null ? Optional.empty() : offer;
    }

    /**
     * A lock without a standing offer.
     *
     * @param name             the lock's name
     * @param holders          its holders
     * @param waitingInQueue   queued waiters
     * @param waitingProcesses processes waiting
     * @param lastRun          the latest recorded run
     */
    public LockInfo(String name, List<LockHolder> holders, int waitingInQueue, int waitingProcesses,
                    Optional<LastRun> lastRun) {
        this(name, holders, waitingInQueue, waitingProcesses, lastRun, Optional.empty());
    }

    /**
     * A lock without a recorded run or a standing offer.
     *
     * @param name             the lock's name
     * @param holders          its holders
     * @param waitingInQueue   queued waiters
     * @param waitingProcesses processes waiting
     */
    public LockInfo(String name, List<LockHolder> holders, int waitingInQueue, int waitingProcesses) {
        this(name, holders, waitingInQueue, waitingProcesses, Optional.empty(), Optional.empty());
    }

    /**
     * @return whether anyone holds it, a job's minimum hold after the job returned included
     *         (mode {@code kept}); false while the lock stands offered to a waiting process
     *         ({@link #offer()}), which nobody else can take either
     */
    public boolean isHeld() {
        return !holders.isEmpty();
    }
}
