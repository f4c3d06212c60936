package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ring contract (several processes) on three independent masters ({@code RedisMode.REDLOCK}).
 */
class RedLockRingContractTest extends RingContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.redLock();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
