package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The facade contract (every kind of lock, six ways to take it) on one master.
 */
class StandaloneFacadeContractTest extends FacadeContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.standalone();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
