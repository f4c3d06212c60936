package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The facade contract (every kind of lock, six ways to take it) on a master with a replica that acknowledges every acquisition ({@code syncReplicas(1)}).
 */
class ReplicatedFacadeContractTest extends FacadeContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.replicated();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
