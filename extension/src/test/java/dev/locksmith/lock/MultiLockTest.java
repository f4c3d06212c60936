package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.JavaProcess;
import dev.locksmith.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
    void aMultiLockWithALockOfAClosedManagerFailsAndLeavesNothingBehind() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build();
             LockManager others = Locksmith.builder().redisUri(redis.uri()).build()) {
            LockManager closed = Locksmith.builder().redisUri(redis.uri()).build();
            DistributedLock all = locks.getMultiLock(locks.getLock("open-part"), closed.getLock("closed-part"));
            closed.close();

            assertThatThrownBy(() -> all.tryLock(1, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");

            assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
            DistributedLock first = others.getLock("open-part");
            assertThat(first.tryLock()).as("the open manager's part is free at once").isTrue();
            first.unlock();
        }
    }

    /**
     * The multi-lock waits for its first part (another manager holds it) while the manager of its
     * second part closes: once it gets the first, taking the second fails, and the first, which
     * the caller never hears it held, is released before the failure reaches the caller.
     */
    @Test
    void aPartWhoseManagerClosedWhileTheMultiLockWaitedReleasesThePartsAlreadyTaken() throws Exception {
        ExecutorService threads = Executors.newCachedThreadPool();
        try (LockManager holders = Locksmith.builder().redisUri(redis.uri()).build();
             LockManager locks = Locksmith.builder().redisUri(redis.uri()).build();
             LockManager closing = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock held = holders.getLock("waited-part");
            held.lock();
            DistributedLock all = locks.getMultiLock(locks.getLock("waited-part"), closing.getLock("closing-part"));
            Future<Boolean> caller = threads.submit(() -> all.tryLock(30, TimeUnit.SECONDS));
            Await.until("the multi-lock waits for its first part", Duration.ofSeconds(10),
                    () -> redis.listeners("locksmith:{waited-part}:released") == 1 || caller.isDone());
            Future<?> closer = threads.submit(closing::close); // waits for the multi-lock's call to end
            Await.until("the second part's manager refuses calls", Duration.ofSeconds(10),
                    () -> refusesCalls(closing));

            held.unlock();

            assertThatThrownBy(() -> caller.get(10, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
            closer.get(30, TimeUnit.SECONDS);
            DistributedLock first = holders.getLock("waited-part");
            assertThat(first.tryLock()).as("the part the multi-lock got is free at once").isTrue();
            first.unlock();
            assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
        } finally {
            threads.shutdownNow();
        }
    }

    private static boolean refusesCalls(LockManager manager) {
        try {
            DistributedLock probe = manager.getLock("probe");
            if (probe.tryLock()) {
                probe.unlock();
            }
            return false;
        } catch (IllegalStateException closed) {
            return true;
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
