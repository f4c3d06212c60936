package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The multi-lock contract (a reentrant, a fair and a write lock together) on one master.
 */
class StandaloneMultiLockContractTest extends MultiLockContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.standalone();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }

    @Override
    protected Timing timing() {
        return Timing.LOCAL_MASTER;
    }
}
