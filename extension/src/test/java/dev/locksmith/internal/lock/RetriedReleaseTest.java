package dev.locksmith.internal.lock;

import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.manager.DefaultLockManager;
import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.testing.RedisServerExtension;
import java.util.List;
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
        try (var locks = (DefaultLockManager) Locksmith.builder().redisUri(redis.uri()).build();
             ScriptClient scripts = new ScriptClient(redis.uri())) {
            DistributedLock lock = locks.getLock("retried");
            lock.lock();
            lock.lock();
            Hold hold = ((RedisLock) lock).currentHold();
            LockKeys keys = LockKeys.of("locksmith:", "retried");

            lock.unlock();
            long last = scripts.release(keys, hold.owner(), "2");
            long resentLast = scripts.release(keys, hold.owner(), "2");
            long resentAgain = scripts.release(keys, hold.owner(), "2");

            assertThat(last).isZero();
            assertThat(resentLast).as("released, not 'lost'").isZero();
            assertThat(resentAgain).as("a second resend gets the same answer").isZero();
            assertThat(lock.isLocked()).isFalse();
        }
    }

    @Test
    void aResentKeepIsAnsweredOnceAndTheKeptLockIsNobodysNotEvenItsLastHolders() throws Exception {
        try (ScriptClient scripts = new ScriptClient(redis.uri())) {
            LockKeys keys = LockKeys.of("locksmith:", "kept");
            String owner = "manager:1";
            assertThat(scripts.acquire(keys, owner).get(0)).isEqualTo(1L);

            long kept = scripts.keep(keys, owner, "3", 2_000);
            long resent = scripts.keep(keys, owner, "3", 2_000);
            List<Long> sameOwnerAgain = scripts.acquire(keys, owner);
            long releaseByTheLastHolder = scripts.release(keys, owner, "4");

            assertThat(kept).isZero();
            assertThat(resent).as("kept, not 'lost'").isZero();
            assertThat(sameOwnerAgain.get(0)).as("its last holder cannot take it afresh").isZero();
            assertThat(sameOwnerAgain.get(1)).as("told to wait for the rest of the hold").isBetween(1L, 2_000L);
            assertThat(releaseByTheLastHolder).as("nor release it").isEqualTo(-1);
            assertThat(scripts.redis().get(keys.lock())).startsWith("k" + owner + "|");
            assertThat(scripts.redis().pttl(keys.lock())).isBetween(1L, 2_000L);
        }
    }

    @Test
    void theOwnersNextReleaseIsAnsweredOnItsOwnAndReusesTheLatch() throws Exception {
        try (ScriptClient scripts = new ScriptClient(redis.uri())) {
            LockKeys keys = LockKeys.of("locksmith:", "relocked");
            String owner = "manager:1";

            assertThat(scripts.acquire(keys, owner).get(0)).isEqualTo(1L);
            assertThat(scripts.release(keys, owner, "7")).isZero();
            assertThat(scripts.acquire(keys, owner).get(0)).isEqualTo(1L);
            assertThat(scripts.release(keys, owner, "8")).as("a new request, not the answer to 7").isZero();
            assertThat(scripts.redis().exists(keys.lock())).as("request 8 released the second hold").isZero();
            assertThat(scripts.release(keys, owner, "8")).as("8 resent").isZero();
            assertThat(scripts.release(keys, owner, "9"))
                    .as("a new request for a hold that is gone is told so").isEqualTo(-1);
            assertThat(redis.keys("locksmith:{relocked}:unlock:*"))
                    .as("one latch for the owner, overwritten by each release").containsExactly(keys.latch(owner));
            assertThat(scripts.redis().pttl(keys.latch(owner))).as("kept for the command timeout")
                    .isBetween(1L, 5000L);
        }
    }

    /**
     * Redis keeps the writes of a script that fails halfway: a release whose latch was written but
     * whose deletion of the lock failed (a refused command, a full memory) leaves the lock its
     * owner's, with the answer already in the latch. Its copy must free the lock, not answer from the
     * latch and leave it taken by nobody's hold until its lease runs out.
     */
    @Test
    void aCopyOfAReleaseThatFailedAfterWritingItsLatchFreesTheLock() throws Exception {
        try (ScriptClient scripts = new ScriptClient(redis.uri())) {
            LockKeys keys = LockKeys.of("locksmith:", "half-released");
            String owner = "manager:1";
            assertThat(scripts.acquire(keys, owner).get(0)).isEqualTo(1L);
            scripts.redis().psetex(keys.latch(owner), 5_000, "5|0"); // what the first copy of request 5 wrote

            long copy = scripts.release(keys, owner, "5");

            assertThat(copy).as("released").isZero();
            assertThat(scripts.redis().exists(keys.lock())).as("the lock is free at once, not after its lease").isZero();
            assertThat(scripts.acquire(keys, "manager:2").get(0)).as("another owner takes it").isEqualTo(1L);
            assertThat(scripts.release(keys, "manager:2", "1")).isZero();
        }
    }

    @Test
    void aResentHandOverGetsTheFirstAnswerAndANewOneForAGoneHoldIsToldSo() throws Exception {
        try (ScriptClient scripts = new ScriptClient(redis.uri())) {
            LockKeys keys = LockKeys.of("locksmith:", "handed");
            String owner = "manager:1";
            String taker = "manager:2";
            scripts.acquire(keys, owner);

            long token = scripts.handOver(keys, owner, taker, "3");
            long resent = scripts.handOver(keys, owner, taker, "3");
            long another = scripts.handOver(keys, owner, taker, "4");

            assertThat(token).as("the taker's token").isPositive();
            assertThat(resent).as("the resent request's answer").isEqualTo(token);
            assertThat(another).as("a new request for a hold that is gone").isEqualTo(-1);
            assertThat(scripts.redis().get(keys.lock())).as("the taker holds it once, with the token")
                    .startsWith("-" + taker + "|" + token + "|1|");
            assertThat(scripts.release(keys, taker, "1")).isZero();
        }
    }
}
