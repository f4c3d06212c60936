package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job lock contract on three independent masters ({@code RedisMode.REDLOCK}).
 */
class RedLockJobLockContractTest extends JobLockContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.redLock();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
