package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job lock contract on one master.
 */
class StandaloneJobLockContractTest extends JobLockContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.standalone();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
