package dev.locksmith.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import java.util.List;

/**
 * The lock contract, run by a multi-lock over a reentrant, a fair and a write lock.
 */
class MultiLockContractTest extends LockContractTest {
    @Override
    DistributedLock lockOf(LockManager locks, String name) {
        return locks.getMultiLock(locks.getLock(name + "-a"), locks.getFairLock(name + "-b"),
                locks.getReadWriteLock(name + "-c").writeLock());
    }

    @Override
    List<String> channels(String name) {
        return List.of("locksmith:{" + name + "-a}:released", "locksmith:{" + name + "-b}:released",
                "locksmith:{" + name + "-c}:rw:released");
    }
}
