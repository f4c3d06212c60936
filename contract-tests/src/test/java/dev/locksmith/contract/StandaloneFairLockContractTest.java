package dev.locksmith.contract;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lock contract, run by the fair lock ({@code getFairLock}), on one master.
 */
class StandaloneFairLockContractTest extends LockContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.standalone();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }

    @Override
    protected Timing timing() {
        return Timing.LOCAL_MASTER;
    }

    @Override
    protected DistributedLock lockOf(LockManager locks, String name) {
        return locks.getFairLock(name);
    }
}
