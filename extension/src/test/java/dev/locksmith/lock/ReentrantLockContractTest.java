package dev.locksmith.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import java.util.List;

/**
 * The lock contract, run by the reentrant lock ({@code getLock}).
 */
class ReentrantLockContractTest extends LockContractTest {
    @Override
    DistributedLock lockOf(LockManager locks, String name) {
        return locks.getLock(name);
    }

    @Override
    List<String> channels(String name) {
        return List.of("locksmith:{" + name + "}:released");
    }
}
