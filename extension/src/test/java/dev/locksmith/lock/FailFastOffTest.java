package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LocalRedisServer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code Locksmith.builder().failFast(false)}: a manager built while Redis is down exists, fails
 * each call at once with a {@link LockException} that says why, connects in the background once
 * Redis is there, and stops trying when it is closed.
 */
class FailFastOffTest {
    private LocalRedisServer redis;

    @BeforeEach
    void startThenStopRedis() {
        redis = LocalRedisServer.start();
        redis.kill();
    }

    @AfterEach
    void stopRedis() { // the server, its keys and its directory go with it
        redis.close();
    }

    @Test
    void aManagerBuiltWhileRedisIsDownConnectsWhenItComes() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).keyPrefix("fail-fast-off:")
                .failFast(false).build()) {

            assertThatThrownBy(() -> locks.getLock("report")).isInstanceOf(LockException.class)
                    .hasMessageContaining("has not connected to Redis at STANDALONE redis://127.0.0.1:" + redis.port())
                    .hasMessageContaining("keeps trying in the background");

            redis.restart();
            Await.until("the manager connects once Redis is there", Duration.ofSeconds(30), () -> {
                try {
                    locks.describe("report");
                    return true;
                } catch (LockException stillConnecting) {
                    return false;
                }
            });
            DistributedLock lock = locks.getLock("report");
            assertThat(lock.tryLock(1, TimeUnit.SECONDS)).isTrue();
            lock.unlock();
        }
    }

    @Test
    void closingAManagerThatIsStillConnectingStopsItAtOnce() {
        LockManager locks = Locksmith.builder().redisUri(redis.uri()).failFast(false).build();

        long start = System.nanoTime();
        locks.close();

        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("close() waits at most for an attempt under way,"
                + " and a refused connect is quick").isLessThan(Duration.ofSeconds(3));
        assertThatThrownBy(() -> locks.getLock("report")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        locks.close(); // idempotent
    }

    @Test
    void theDefaultStillFailsTheBuildWhenRedisIsDown() {
        assertThatThrownBy(() -> Locksmith.builder().redisUri(redis.uri()).build()).isInstanceOf(LockException.class)
                .hasMessageContaining("Cannot connect to Redis");
    }
}
