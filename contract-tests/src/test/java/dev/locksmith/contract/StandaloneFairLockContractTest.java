package dev.locksmith.contract;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;

/**
 * The lock contract, run by the fair lock ({@code getFairLock}), on one master.
 */
class StandaloneFairLockContractTest extends StandaloneLockContractTest {
    @Override
    protected DistributedLock lockOf(LockManager locks, String name) {
        return locks.getFairLock(name);
    }
}
