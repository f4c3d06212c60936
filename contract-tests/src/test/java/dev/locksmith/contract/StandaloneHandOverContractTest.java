package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The hand-over contract (threads of one process) on one master.
 */
class StandaloneHandOverContractTest extends HandOverContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.standalone();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
