package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ring contract (several processes) on a cluster of three masters with a replica each ({@code RedisMode.CLUSTER}).
 */
class ClusterRingContractTest extends RingContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.cluster();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
