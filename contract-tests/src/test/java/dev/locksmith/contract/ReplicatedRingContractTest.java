package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ring contract (several processes) on a master with a replica that acknowledges every acquisition ({@code syncReplicas(1)}).
 */
class ReplicatedRingContractTest extends RingContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.replicated();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
