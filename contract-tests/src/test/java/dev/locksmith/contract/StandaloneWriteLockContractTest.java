package dev.locksmith.contract;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;

/**
 * The lock contract, run by the write side of the read/write lock, on one master.
 */
class StandaloneWriteLockContractTest extends StandaloneLockContractTest {
    @Override
    protected DistributedLock lockOf(LockManager locks, String name) {
        return locks.getReadWriteLock(name).writeLock();
    }
}
