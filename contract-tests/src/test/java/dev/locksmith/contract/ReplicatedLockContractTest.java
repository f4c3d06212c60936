package dev.locksmith.contract;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lock contract on a master with a replica that acknowledges every acquisition ({@code syncReplicas(1)}).
 */
class ReplicatedLockContractTest extends LockContract {
    @RegisterExtension
    static final SharedRedis redis = SharedRedis.replicated();

    @Override
    protected RedisUnderTest redis() {
        return redis;
    }
}
