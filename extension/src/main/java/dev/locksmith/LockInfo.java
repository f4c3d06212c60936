package dev.locksmith;

import java.util.List;

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
 */
public record LockInfo(String name, List<LockHolder> holders, int waitingInQueue, int waitingProcesses) {

    /**
     * @param name             the lock's name
     * @param holders          its holders
     * @param waitingInQueue   queued waiters
     * @param waitingProcesses processes waiting
     */
    public LockInfo {
        holders = List.copyOf(holders);
    }

    /**
     * @return whether anyone holds it
     */
    public boolean isHeld() {
        return !holders.isEmpty();
    }
}
