package dev.locksmith.internal.lock;

import dev.locksmith.internal.lock.local.SleepingWaiters;
import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A manager says how many of its threads sleep waiting for a lock of a name, and where: in the
 * local line, where a release here may hand them the lock, or outside it (readers, fair waiters).
 */
class SleepingWaitersTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aManagerCountsItsSleepingWaitersByNameAndWhereTheySleep() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try (LockManager holders = Locksmith.builder().redisUri(redis.uri()).build();
             DefaultLockManager locks = (DefaultLockManager) Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock exclusive = holders.getLock("counted");
            DistributedLock writer = holders.getReadWriteLock("counted").writeLock();
            DistributedLock fair = holders.getFairLock("counted-fair");
            exclusive.lock();
            writer.lock();
            fair.lock();
            assertThat(locks.sleepingWaiters("counted")).isEqualTo(SleepingWaiters.NONE);

            List<Future<Boolean>> waiters = new ArrayList<>();
            waiters.add(threads.submit(() -> takeAndRelease(locks.getLock("counted"))));
            waiters.add(threads.submit(() -> takeAndRelease(locks.getLock("counted"))));
            waiters.add(threads.submit(() -> takeAndRelease(locks.getReadWriteLock("counted").readLock())));
            waiters.add(threads.submit(() -> takeAndRelease(locks.getFairLock("counted-fair"))));
            Await.until("every waiter sleeps", Duration.ofSeconds(10),
                    () -> locks.sleepingWaiters("counted").equals(new SleepingWaiters(2, 1))
                            && locks.sleepingWaiters("counted-fair").equals(new SleepingWaiters(0, 1)));

            assertThat(locks.statistics().sleepingWaiters()).as("the manager's total").isEqualTo(4);
            assertThat(locks.sleepingWaiters("uncontended")).isEqualTo(SleepingWaiters.NONE);

            exclusive.unlock();
            writer.unlock();
            fair.unlock();
            for (Future<Boolean> waiter : waiters) {
                assertThat(waiter.get(10, TimeUnit.SECONDS)).as("each waiter got its lock").isTrue();
            }
            assertThat(locks.sleepingWaiters("counted")).isEqualTo(SleepingWaiters.NONE);
            assertThat(locks.sleepingWaiters("counted-fair")).isEqualTo(SleepingWaiters.NONE);
            assertThat(locks.statistics().sleepingWaiters()).isZero();
        } finally {
            threads.shutdownNow();
        }
    }

    private static boolean takeAndRelease(DistributedLock lock) throws InterruptedException {
        boolean acquired = lock.tryLock(10, TimeUnit.SECONDS);
        if (acquired) {
            lock.unlock();
        }
        return acquired;
    }
}
