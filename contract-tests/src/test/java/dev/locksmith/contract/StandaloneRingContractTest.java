package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ring contract (several processes) on one master.
 */
class StandaloneRingContractTest extends RingContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.standalone();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
