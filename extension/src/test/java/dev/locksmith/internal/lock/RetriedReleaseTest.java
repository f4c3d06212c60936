package dev.locksmith.internal.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.redis.ScriptRunner;
import dev.locksmith.testing.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A release request that reaches Redis twice (the client resent it after a lost reply) is
 * applied once: it neither releases a second hold nor reports a loss. (Inner releases of a
 * reentrant hold set an absolute count, which a resend cannot apply twice.)
 */
class RetriedReleaseTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aResentReleaseIsAppliedOnce() throws Exception {
        RedisClient client = RedisClient.create(redis.uri());
        try (var locks = (DefaultLockManager) Locksmith.builder().redisUri(redis.uri()).build();
             StatefulRedisConnection<String, String> connection = client.connect()) {
            DistributedLock lock = locks.getLock("retried");
            lock.lock();
            lock.lock();
            Hold hold = ((RedisLock) lock).currentHold();
            LockKeys keys = LockKeys.of("locksmith:", "retried");
            ScriptRunner scripts = new ScriptRunner(connection.async());

            lock.unlock();
            long last = release(scripts, keys, hold, "request-2");
            long resentLast = release(scripts, keys, hold, "request-2");

            assertThat(last).isZero();
            assertThat(resentLast).as("released, not 'lost'").isZero();
            assertThat(lock.isLocked()).isFalse();
        } finally {
            client.shutdown();
        }
    }

    private static long release(ScriptRunner scripts, LockKeys keys, Hold hold, String requestId) throws Exception {
        return ExclusiveKind.INSTANCE.release(keys, hold.owner(), keys.latchPrefix() + requestId, 5000)
                .<Long>runOn(scripts).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }
}
