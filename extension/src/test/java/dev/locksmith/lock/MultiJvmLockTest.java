package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
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
        }

        assertThat(redis.node().command("GET", "counter")).isEqualTo(Integer.toString(2 * threads * iterations));
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
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
