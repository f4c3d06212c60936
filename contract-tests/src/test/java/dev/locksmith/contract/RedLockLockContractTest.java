package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lock contract on three independent masters ({@code RedisMode.REDLOCK}).
 */
class RedLockLockContractTest extends LockContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.redLock();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
