package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The hand-over contract (threads of one process) on a master and two replicas found through three Sentinels ({@code redis-sentinel://}).
 */
class SentinelHandOverContractTest extends HandOverContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.sentinel();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
