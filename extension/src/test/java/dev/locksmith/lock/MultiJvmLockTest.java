package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.JavaProcess;
import dev.locksmith.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Mutual exclusion and lease expiry across separate JVMs sharing one Redis.
 */
class MultiJvmLockTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void sixteenThreadsInTwoJvmsNeverLoseAnUpdate() {
        int threads = 16;
        int iterations = 40;

        try (JavaProcess first = JavaProcess.start(LockWorker.class, "count", redis.uri(), "counter-lock",
                Integer.toString(threads), Integer.toString(iterations), "counter", "tokens");
             JavaProcess second = JavaProcess.start(LockWorker.class, "count", redis.uri(), "counter-lock",
                     Integer.toString(threads), Integer.toString(iterations), "counter", "tokens")) {
            assertThat(first.awaitLine("DONE", Duration.ofMinutes(3))).isEqualTo("DONE");
            assertThat(second.awaitLine("DONE", Duration.ofMinutes(3))).isEqualTo("DONE");
            assertThat(first.awaitExit(Duration.ofSeconds(30))).isZero();
            assertThat(second.awaitExit(Duration.ofSeconds(30))).isZero();
        }

        assertThat(redis.node().command("GET", "counter")).isEqualTo(Integer.toString(2 * threads * iterations));
        // Each worker closed its manager before exiting: closing passes on an offer its process no longer takes.
        Await.until("no lock state is left", Duration.ofSeconds(10), () -> redis.lockStateLeftBehind(5_000).isEmpty());
        assertThat(redis.keys("locksmith:*:fence")).containsExactly("locksmith:{counter-lock}:fence");
    }

    @Test
    void fencingTokensStrictlyIncreaseAcrossJvms() {
        try (JavaProcess first = JavaProcess.start(LockWorker.class, "count", redis.uri(), "fenced",
                "4", "25", "counter", "tokens");
             JavaProcess second = JavaProcess.start(LockWorker.class, "count", redis.uri(), "fenced",
                     "4", "25", "counter", "tokens")) {
            first.awaitLine("DONE", Duration.ofMinutes(2));
            second.awaitLine("DONE", Duration.ofMinutes(2));
        }

        @SuppressWarnings("unchecked")
        List<String> tokens = (List<String>) dev.locksmith.testing.RespClient.call(redis.node().port(),
                "LRANGE", "tokens", "0", "-1");
        assertThat(tokens).hasSize(200);
        List<Long> values = tokens.stream().map(Long::parseLong).toList();
        for (int i = 1; i < values.size(); i++) {
            assertThat(values.get(i)).as("token %d after %d", i, i - 1).isGreaterThan(values.get(i - 1));
        }
    }

    /**
     * A release hands the lock to a waiting thread of its own JVM ahead of the other JVMs, but
     * only a few times in a row; then it offers the lock to the other JVM, next in the ring. Two JVMs that
     * both always have waiters take turns, each getting about half of the cycles.
     */
    @Test
    void aJvmWithWaitersOfItsOwnDoesNotStarveTheOther() {
        int total = 4_000;
        try (JavaProcess first = JavaProcess.start(LockWorker.class, "share", redis.uri(), "shared-lock", "4",
                Integer.toString(total), "A");
             JavaProcess second = JavaProcess.start(LockWorker.class, "share", redis.uri(), "shared-lock", "4",
                     Integer.toString(total), "B")) {
            first.awaitLine("READY", Duration.ofMinutes(1));
            second.awaitLine("READY", Duration.ofMinutes(1));
            redis.node().command("RPUSH", "go:A", "go");
            redis.node().command("RPUSH", "go:B", "go");
            assertThat(first.awaitLine("DONE", Duration.ofMinutes(3))).isEqualTo("DONE");
            assertThat(second.awaitLine("DONE", Duration.ofMinutes(3))).isEqualTo("DONE");
            assertThat(first.awaitExit(Duration.ofSeconds(30))).isZero();
            assertThat(second.awaitExit(Duration.ofSeconds(30))).isZero();
        }

        @SuppressWarnings("unchecked")
        List<String> order = (List<String>) dev.locksmith.testing.RespClient.call(redis.node().port(),
                "LRANGE", "order", "0", "-1");
        assertThat(redis.node().command("GET", "shared")).as("no lost update").isEqualTo(Integer.toString(order.size()));
        List<String> together = order.subList(Math.max(order.indexOf("A"), order.indexOf("B")), order.size());
        long turnsOfA = together.stream().filter("A"::equals).count();
        assertThat(turnsOfA).as("turns of A among %d taken while both JVMs were at it", together.size())
                .isBetween(together.size() / 3L, together.size() * 2L / 3);
        // Each worker closed its manager before exiting: closing passes on an offer its process no longer takes.
        Await.until("no lock state is left", Duration.ofSeconds(10), () -> redis.lockStateLeftBehind(5_000).isEmpty());
    }

    @Test
    void killedHolderFreesTheLockWithinOneLease() throws Exception {
        long leaseMillis = 1_000;
        try (JavaProcess holder = JavaProcess.start(LockWorker.class, "hold", redis.uri(), "crashy",
                Long.toString(leaseMillis));
             LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            holder.awaitLine("HELD", Duration.ofSeconds(30));
            DistributedLock lock = locks.getLock("crashy");
            assertThat(lock.tryLock()).as("held by the other JVM").isFalse();

            holder.kill();
            long killedAt = System.nanoTime();
            boolean acquired = lock.tryLock(leaseMillis * 3, TimeUnit.MILLISECONDS);
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);

            assertThat(acquired).isTrue();
            assertThat(waitedMillis).isLessThanOrEqualTo(leaseMillis + 250);
            lock.unlock();
        }
    }
}
