package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The facade contract (every kind of lock, six ways to take it) on a master and two replicas found through three Sentinels ({@code redis-sentinel://}).
 */
class SentinelFacadeContractTest extends FacadeContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.sentinel();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
