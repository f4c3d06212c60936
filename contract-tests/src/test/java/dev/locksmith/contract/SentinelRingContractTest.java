package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ring contract (several processes) on a master and two replicas found through three Sentinels ({@code redis-sentinel://}).
 */
class SentinelRingContractTest extends RingContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.sentinel();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
