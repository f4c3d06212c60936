package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job lock contract on a master and two replicas found through three Sentinels ({@code redis-sentinel://}).
 */
class SentinelJobLockContractTest extends JobLockContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.sentinel();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
