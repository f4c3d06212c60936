package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The facade contract (every kind of lock, six ways to take it) on three independent masters ({@code RedisMode.REDLOCK}).
 */
class RedLockFacadeContractTest extends FacadeContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.redLock();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
