package dev.locksmith.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import java.util.List;

/**
 * The lock contract, run by the fair lock ({@code getFairLock}).
 */
class FairLockContractTest extends LockContractTest {
    @Override
    DistributedLock lockOf(LockManager locks, String name) {
        return locks.getFairLock(name);
    }

    @Override
    List<String> channels(String name) {
        return List.of("locksmith:{" + name + "}:released");
    }
}
