package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lock contract on one master.
 */
class StandaloneLockContractTest extends LockContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.standalone();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
