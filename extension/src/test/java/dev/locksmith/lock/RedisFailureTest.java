package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.testing.FreePorts;
import dev.locksmith.testing.LocalRedisServer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When Redis cannot be reached the caller gets a {@link LockException} with the cause, and this
 * process records no hold that Redis does not have.
 */
class RedisFailureTest {

    @Test
    void connectingToNothingFailsAtBuildWithTheAddress() {
        int port = FreePorts.next();

        assertThatThrownBy(() -> Locksmith.builder().redisUri("redis://127.0.0.1:" + port).build())
                .isInstanceOf(LockException.class)
                .hasMessageContaining("127.0.0.1:" + port)
                .hasMessageContaining("locksmith.redis.uri")
                .hasCauseInstanceOf(RuntimeException.class);
    }

    @Test
    void aServerThatDiesMidUseGivesLockExceptionAndNoPhantomHold() throws Exception {
        try (LocalRedisServer server = LocalRedisServer.start();
             DefaultLockManager locks = (DefaultLockManager) Locksmith.builder().redisUri(server.uri())
                     .commandTimeout(Duration.ofMillis(500)).build()) {
            DistributedLock lock = locks.getLock("fragile");
            lock.lock();
            lock.unlock();

            server.kill();

            assertThatThrownBy(() -> lock.tryLock(1, TimeUnit.SECONDS))
                    .isInstanceOf(LockException.class).hasMessageContaining("'fragile'")
                    .satisfies(e -> assertThat(e.getCause()).as("the Redis client's error").isNotNull());
            assertThat(locks.statistics().toString()).contains("holds=0");
        }
    }

    @Test
    void fencingTokensKeepIncreasingAfterTheServerLosesItsData() throws Exception {
        try (LocalRedisServer server = LocalRedisServer.start()) {
            long before;
            try (DefaultLockManager locks = (DefaultLockManager) Locksmith.builder().redisUri(server.uri()).build()) {
                DistributedLock lock = locks.getLock("fenced");
                lock.lock();
                before = lock.fencingToken();
                lock.unlock();
            }

            server.kill();
            server.restart();

            try (DefaultLockManager locks = (DefaultLockManager) Locksmith.builder().redisUri(server.uri()).build()) {
                DistributedLock lock = locks.getLock("fenced");
                lock.lock();
                assertThat(lock.fencingToken()).as("the counter restarts from the server clock, not from 1")
                        .isGreaterThan(before);
                lock.unlock();
            }
        }
    }
}
