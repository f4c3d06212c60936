package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The reentrant and the fair lock of one name are one lock in Redis. Every release wakes every
 * local waiter that could now proceed, whichever kind held it and whichever kind waits.
 */
class MixedKindsTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aReentrantWaiterIsWokenByTheReleaseOfAFairHolderOfItsOwnManager() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock fair = locks.getFairLock("mixed");
            fair.lock();
            CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
                DistributedLock reentrant = locks.getLock("mixed");
                try {
                    long start = System.nanoTime();
                    boolean acquired = reentrant.tryLock(25, TimeUnit.SECONDS);
                    long waited = System.nanoTime() - start;
                    reentrant.unlock();
                    return acquired ? waited : -1;
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            Await.until("the reentrant waiter waits", Duration.ofSeconds(10),
                    () -> locks.describe("mixed").holders().size() == 1 && waiterWaits(locks, "mixed"));

            long releasedAt = System.nanoTime();
            fair.unlock();

            long waited = waiter.get(20, TimeUnit.SECONDS);
            assertThat(waited).as("acquired").isPositive();
            assertThat(Duration.ofNanos(System.nanoTime() - releasedAt))
                    .as("woken by the release, not by its deadline or the 30 s lease").isLessThan(Duration.ofSeconds(3));
        }
    }

    @Test
    void aFairWaiterIsWokenByTheReleaseOfAReentrantHolderOfItsOwnManager() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock reentrant = locks.getLock("mixed-2");
            reentrant.lock();
            CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
                DistributedLock fair = locks.getFairLock("mixed-2");
                try {
                    boolean acquired = fair.tryLock(25, TimeUnit.SECONDS);
                    fair.unlock();
                    return acquired;
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            Await.until("the fair waiter queues", Duration.ofSeconds(10),
                    () -> locks.describe("mixed-2").waitingInQueue() == 1);

            long releasedAt = System.nanoTime();
            reentrant.unlock();

            assertThat(waiter.get(20, TimeUnit.SECONDS)).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).isLessThan(Duration.ofSeconds(3));
        }
    }

    /**
     * @return whether a thread of {@code locks} sleeps waiting for lock {@code name}, as the
     *         manager's lock protocol counts it
     */
    private static boolean waiterWaits(LockManager locks, String name) {
        return ((DefaultLockManager) locks).sleepingWaiters(name).total() > 0;
    }
}
