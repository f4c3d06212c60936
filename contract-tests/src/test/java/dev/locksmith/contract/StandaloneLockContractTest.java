package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lock contract on one master, with the bounds of a master on this machine.
 */
class StandaloneLockContractTest extends LockContract {
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
}
