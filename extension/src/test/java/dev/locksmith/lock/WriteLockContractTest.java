package dev.locksmith.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import java.util.List;

/**
 * The lock contract, run by the write side of the read/write lock.
 */
class WriteLockContractTest extends LockContractTest {
    @Override
    DistributedLock lockOf(LockManager locks, String name) {
        return locks.getReadWriteLock(name).writeLock();
    }

    @Override
    List<String> channels(String name) {
        return List.of("locksmith:{" + name + "}:rw:released");
    }
}
