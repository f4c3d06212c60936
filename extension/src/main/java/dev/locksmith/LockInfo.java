package dev.locksmith;

import java.util.List;
import java.util.Optional;

/**
 * What Redis knows about one lock name now: who holds it, since when, and how many wait. One
 * lock name can have several holders only as readers of a read/write lock. See
 * {@link LockManager#describe(String)}.
 *
 * @param name             the lock's name
 * @param holders          every current holder of any kind of lock of that name; empty when free
 * @param waitingInQueue   waiters Redis counts one by one: fair-lock waiters and writers waiting
 *                         for a read/write lock, from every process
 * @param waitingProcesses processes with at least one thread waiting to be woken by this lock's
 *                         release (each process listens once, however many threads wait)
 * @param lastRun          the latest run of a job under this lock (a call that skips when held, or
 *                         keeps a minimum hold), while Redis remembers it; empty for other locks
 */
public record LockInfo(String name, List<LockHolder> holders, int waitingInQueue, int waitingProcesses,
                       Optional<LastRun> lastRun) {

    /**
     * @param name             the lock's name
     * @param holders          its holders
     * @param waitingInQueue   queued waiters
     * @param waitingProcesses processes waiting
     * @param lastRun          the latest recorded run
     */
    public LockInfo {
        holders = List.copyOf(holders);
        lastRun = lastRun == null ? Optional.empty() : lastRun;
    }

    /**
     * A lock without a recorded run.
     *
     * @param name             the lock's name
     * @param holders          its holders
     * @param waitingInQueue   queued waiters
     * @param waitingProcesses processes waiting
     */
    public LockInfo(String name, List<LockHolder> holders, int waitingInQueue, int waitingProcesses) {
        this(name, holders, waitingInQueue, waitingProcesses, Optional.empty());
    }

    /**
     * @return whether anyone holds it, a job's minimum hold after the job returned included
     *         (mode {@code kept})
     */
    public boolean isHeld() {
        return !holders.isEmpty();
    }
}
