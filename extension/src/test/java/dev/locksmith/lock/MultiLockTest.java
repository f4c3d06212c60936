package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.JavaProcess;
import dev.locksmith.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A multi-lock holds all of its locks or none of them, and cannot deadlock with another
 * multi-lock over the same locks in the opposite order.
 */
class MultiLockTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void twoJvmsTakingTheSameTwoLocksInOppositeOrderNeverDeadlock() {
        try (JavaProcess forward = JavaProcess.start(LockWorker.class, "multi", redis.uri(), "150", "left", "right");
             JavaProcess backward = JavaProcess.start(LockWorker.class, "multi", redis.uri(), "150", "right", "left")) {
            forward.awaitLine("DONE", Duration.ofMinutes(2));
            backward.awaitLine("DONE", Duration.ofMinutes(2));
            assertThat(forward.awaitExit(Duration.ofSeconds(30))).isZero();
            assertThat(backward.awaitExit(Duration.ofSeconds(30))).isZero();
        }

        assertThat(redis.node().command("GET", "multi-counter")).isEqualTo("300");
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    @Test
    void whenOneLockIsTakenNoneIsHeldAfterTheWait() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build();
             LockManager others = Locksmith.builder().redisUri(redis.uri()).build()) {
            others.getLock("c").lock();
            DistributedLock all = locks.getMultiLock(locks.getLock("a"), locks.getLock("b"), locks.getLock("c"));

            boolean acquired = all.tryLock(300, TimeUnit.MILLISECONDS);

            assertThat(acquired).isFalse();
            assertThat(locks.getLock("a").isLocked()).isFalse();
            assertThat(locks.getLock("b").isLocked()).isFalse();
            assertThat(all.isLocked()).as("c is still held by the other manager").isTrue();
        }
    }

    @Test
    void unlockReleasesEveryLockOfTheSet() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock all = locks.getMultiLock(locks.getLock("x"), locks.getFairLock("y"),
                    locks.getReadWriteLock("z").writeLock());

            all.lock();
            assertThat(all.isHeldByCurrentThread()).isTrue();
            assertThat(all.getName()).isEqualTo("multi[x,y,z]");
            all.unlock();

            assertThat(all.isLocked()).isFalse();
            assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
        }
    }

    @Test
    void anEmptyOrNullSetIsRefused() {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            assertThatThrownBy(locks::getMultiLock).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("at least one lock");
            assertThatThrownBy(() -> locks.getMultiLock(locks.getLock("x"), null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Lock 1");
        }
    }
}
