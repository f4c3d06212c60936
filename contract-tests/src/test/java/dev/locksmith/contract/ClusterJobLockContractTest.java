package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job lock contract on a cluster of three masters with a replica each ({@code RedisMode.CLUSTER}).
 */
class ClusterJobLockContractTest extends JobLockContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.cluster();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
