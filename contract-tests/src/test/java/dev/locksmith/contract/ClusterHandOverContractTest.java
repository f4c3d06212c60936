package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The hand-over contract (threads of one process) on a cluster of three masters with a replica each ({@code RedisMode.CLUSTER}).
 */
class ClusterHandOverContractTest extends HandOverContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.cluster();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
