package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lock contract on a master and two replicas found through three Sentinels ({@code redis-sentinel://}).
 */
class SentinelLockContractTest extends LockContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.sentinel();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
