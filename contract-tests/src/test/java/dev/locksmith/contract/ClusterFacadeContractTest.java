package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The facade contract (every kind of lock, six ways to take it) on a cluster of three masters with a replica each ({@code RedisMode.CLUSTER}).
 */
class ClusterFacadeContractTest extends FacadeContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.cluster();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
