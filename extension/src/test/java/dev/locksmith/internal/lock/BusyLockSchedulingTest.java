package dev.locksmith.internal.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A lock passed between two processes on every cycle schedules, in each, one end of its lingering
 * subscription and one watch of its latest offer at a time, not one of each per cycle: the
 * manager's scheduler thread stays asleep while the lock is busy. Once the lock goes idle, the
 * subscriptions still end after the linger.
 */
class BusyLockSchedulingTest {
    private static final int CYCLES = 400;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aBusyLockKeepsOneLingerEndAndOneOfferWatchScheduled() throws Exception {
        ScheduledThreadPoolExecutor schedulerOfA = new ScheduledThreadPoolExecutor(1);
        ScheduledThreadPoolExecutor schedulerOfB = new ScheduledThreadPoolExecutor(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (LockManager a = Locksmith.builder().redisUri(redis.uri()).watchdogScheduler(schedulerOfA).build();
             LockManager b = Locksmith.builder().redisUri(redis.uri()).watchdogScheduler(schedulerOfB).build()) {
            int idleA = schedulerOfA.getQueue().size();
            int idleB = schedulerOfB.getQueue().size();
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> workers = new ArrayList<>();
            for (LockManager manager : List.of(a, b)) {
                DistributedLock lock = manager.getLock("busy");
                workers.add(threads.submit(() -> {
                    start.await();
                    for (int i = 0; i < CYCLES; i++) {
                        assertThat(lock.tryLock(30, TimeUnit.SECONDS)).isTrue();
                        lock.unlock();
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> worker : workers) {
                worker.get(2, TimeUnit.MINUTES);
            }

            System.out.printf("tasks scheduled after %d cycles each: A %d (idle %d), B %d (idle %d)%n", CYCLES,
                    schedulerOfA.getQueue().size(), idleA, schedulerOfB.getQueue().size(), idleB);
            assertThat(schedulerOfA.getQueue().size()).as("A: the idle manager's ticks, one linger end, one watch")
                    .isLessThanOrEqualTo(idleA + 2);
            assertThat(schedulerOfB.getQueue().size()).as("B: the idle manager's ticks, one linger end, one watch")
                    .isLessThanOrEqualTo(idleB + 2);
            String channel = "locksmith:{busy}:released";
            Await.until("both processes stop listening once the lock is idle", Duration.ofSeconds(15),
                    () -> redis.listeners(channel) == 0, () -> redis.listeners(channel) + " listener(s) left");
        } finally {
            threads.shutdownNow();
            schedulerOfA.shutdownNow();
            schedulerOfB.shutdownNow();
        }
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }
}
