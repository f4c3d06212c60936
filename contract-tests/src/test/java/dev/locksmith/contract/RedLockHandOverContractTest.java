package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The hand-over contract (threads of one process) on three independent masters ({@code RedisMode.REDLOCK}).
 */
class RedLockHandOverContractTest extends HandOverContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.redLock();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
