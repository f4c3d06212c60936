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
 * in one key per owner and lock, which the owner's next release overwrites; a hand-over to
 * another owner of the process keeps its answer there too.
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

    @Test
    void aResentHandOverGetsTheFirstAnswerAndANewOneForAGoneHoldIsToldSo() throws Exception {
        RedisClient client = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            LockKeys keys = LockKeys.of("locksmith:", "handed");
            ScriptRunner scripts = new ScriptRunner(connection.async());
            String owner = "manager:1";
            String taker = "manager:2";
            acquire(scripts, keys, owner);

            long token = handOver(scripts, keys, owner, taker, "3");
            long resent = handOver(scripts, keys, owner, taker, "3");
            long another = handOver(scripts, keys, owner, taker, "4");

            assertThat(token).as("the taker's token").isPositive();
            assertThat(resent).as("the resent request's answer").isEqualTo(token);
            assertThat(another).as("a new request for a hold that is gone").isEqualTo(-1);
            assertThat(connection.sync().get(keys.lock())).as("the taker holds it once, with the token")
                    .startsWith("-" + taker + "|" + token + "|1|");
            assertThat(ExclusiveKind.INSTANCE.release(keys, taker, "1", 5000, false).<Long>runOn(scripts)
                    .toCompletableFuture().get(5, TimeUnit.SECONDS)).isZero();
        } finally {
            client.shutdown();
        }
    }

    private static long handOver(ScriptRunner scripts, LockKeys keys, String owner, String taker, String requestId)
            throws Exception {
        AcquireRequest request = new AcquireRequest(taker, 30_000, System.currentTimeMillis(), "taker", 86_400_000);
        return ExclusiveKind.INSTANCE.handOver(keys, owner, request, requestId, 5000)
                .<Long>runOn(scripts).toCompletableFuture().get(5, TimeUnit.SECONDS);
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
        return ExclusiveKind.INSTANCE.release(keys, owner, requestId, 5000, false)
                .<Long>runOn(scripts).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }
}
