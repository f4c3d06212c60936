package dev.locksmith.internal.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.ScriptRunner;
import dev.locksmith.testing.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A release request that reaches Redis twice (the client resent it after a lost reply) is
 * applied once: it neither releases a second hold nor reports a loss.
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

            long first = release(scripts, keys, hold, "request-1");
            long resentFirst = release(scripts, keys, hold, "request-1");
            long last = release(scripts, keys, hold, "request-2");
            long resentLast = release(scripts, keys, hold, "request-2");

            assertThat(first).isEqualTo(1);
            assertThat(resentFirst).as("the same answer, not a second release").isEqualTo(1);
            assertThat(last).isZero();
            assertThat(resentLast).as("released, not 'lost'").isZero();
            assertThat(lock.isLocked()).isFalse();
        } finally {
            client.shutdown();
        }
    }

    private static long release(ScriptRunner scripts, LockKeys keys, Hold hold, String requestId) throws Exception {
        return scripts.<Long>run(LuaScript.load("release"), ScriptOutputType.INTEGER,
                        new String[] {keys.hash(), keys.channel(), keys.latchPrefix() + requestId},
                        hold.owner(), "30000", "5000", "publish")
                .toCompletableFuture().get(5, TimeUnit.SECONDS);
    }
}
