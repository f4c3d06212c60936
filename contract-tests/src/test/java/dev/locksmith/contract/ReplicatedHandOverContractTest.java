package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The hand-over contract (threads of one process) on a master with a replica that acknowledges every acquisition ({@code syncReplicas(1)}).
 */
class ReplicatedHandOverContractTest extends HandOverContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.replicated();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
