package dev.locksmith.internal.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.redis.ScriptRunner;
import dev.locksmith.testing.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A release request that reaches Redis twice (the client resent it after a lost reply) is
 * applied once: it neither releases a second hold nor reports a loss. (Inner releases of a
 * reentrant hold set an absolute count, which a resend cannot apply twice.) The answer is kept
 * in one key per owner and lock, which the owner's next release overwrites.
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
            long last = release(scripts, keys, hold, "2");
            long resentLast = release(scripts, keys, hold, "2");
            long resentAgain = release(scripts, keys, hold, "2");

            assertThat(last).isZero();
            assertThat(resentLast).as("released, not 'lost'").isZero();
            assertThat(resentAgain).as("a second resend gets the same answer").isZero();
            assertThat(lock.isLocked()).isFalse();
        } finally {
            client.shutdown();
        }
    }

    @Test
    void theOwnersNextReleaseIsAnsweredOnItsOwnAndReusesTheLatch() throws Exception {
        RedisClient client = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            LockKeys keys = LockKeys.of("locksmith:", "relocked");
            ScriptRunner scripts = new ScriptRunner(connection.async());
            String owner = "manager:1";

            acquire(scripts, keys, owner);
            assertThat(release(scripts, keys, owner, "7")).isZero();
            acquire(scripts, keys, owner);
            assertThat(release(scripts, keys, owner, "8")).as("a new request, not the answer to 7").isZero();
            assertThat(connection.sync().exists(keys.lock())).as("request 8 released the second hold").isZero();
            assertThat(release(scripts, keys, owner, "8")).as("8 resent").isZero();
            assertThat(release(scripts, keys, owner, "9"))
                    .as("a new request for a hold that is gone is told so").isEqualTo(-1);
            assertThat(connection.sync().keys("locksmith:{relocked}:unlock:*"))
                    .as("one latch for the owner, overwritten by each release").containsExactly(keys.latch(owner));
            assertThat(connection.sync().pttl(keys.latch(owner))).as("kept for the command timeout")
                    .isBetween(1L, 5000L);
        } finally {
            client.shutdown();
        }
    }

    private static void acquire(ScriptRunner scripts, LockKeys keys, String owner) throws Exception {
        List<Object> answer = ExclusiveKind.INSTANCE.acquisition(keys,
                        new AcquireRequest(owner, 30_000, System.currentTimeMillis(), "main", 86_400_000))
                .<List<Object>>runOn(scripts).toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertThat(answer.get(0)).as("acquired").isEqualTo(1L);
    }

    private static long release(ScriptRunner scripts, LockKeys keys, Hold hold, String requestId) throws Exception {
        return release(scripts, keys, hold.owner(), requestId);
    }

    private static long release(ScriptRunner scripts, LockKeys keys, String owner, String requestId) throws Exception {
        return ExclusiveKind.INSTANCE.release(keys, owner, requestId, 5000)
                .<Long>runOn(scripts).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }
}
