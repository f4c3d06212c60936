package dev.locksmith.internal.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.RespClient;
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
 * subscriptions still end after the linger. A process whose threads never wait for the lock
 * keeps one watch too, however many of its releases offer the lock to another process.
 */
class BusyLockSchedulingTest {
    private static final int CYCLES = 400;
    private static final int OFFERS = 3;
    /** How long an offer is watched: long enough that no check runs during the test. */
    private static final Duration LONG_COMMAND_TIMEOUT = Duration.ofSeconds(60);

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
            assertThat(schedulerOfA.getQueue().size()).as("A: the idle manager's ticks, one linger end, one watch: %s", schedulerOfA.getQueue())
                    .isLessThanOrEqualTo(idleA + 2);
            assertThat(schedulerOfB.getQueue().size()).as("B: the idle manager's ticks, one linger end, one watch: %s", schedulerOfB.getQueue())
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

    @Test
    void theReleasesOfAProcessThatNeverWaitsShareOneOfferWatch() throws Exception {
        ScheduledThreadPoolExecutor schedulerOfA = new ScheduledThreadPoolExecutor(1);
        ExecutorService threadOfB = Executors.newSingleThreadExecutor();
        try (LockManager a = Locksmith.builder().redisUri(redis.uri()).commandTimeout(LONG_COMMAND_TIMEOUT)
                     .watchdogScheduler(schedulerOfA).build();
             LockManager b = Locksmith.builder().redisUri(redis.uri()).build()) {
            int idleA = schedulerOfA.getQueue().size();
            DistributedLock lockOfA = a.getLock("offered");
            DistributedLock lockOfB = b.getLock("offered");
            for (int offer = 1; offer <= OFFERS; offer++) {
                assertThat(lockOfA.tryLock()).as("A takes the free lock without waiting, time %d", offer).isTrue();
                Future<Boolean> bWaits = threadOfB.submit(() -> lockOfB.tryLock(30, TimeUnit.SECONDS));
                Await.until("B waits in the ring of processes", Duration.ofSeconds(30), () -> !ring("offered").isEmpty(),
                        () -> "lock value: " + lockValue("offered"));
                lockOfA.unlock(); // offers the lock to B
                assertThat(bWaits.get(30, TimeUnit.SECONDS)).isTrue();
                threadOfB.submit(() -> lockOfB.unlock()).get(30, TimeUnit.SECONDS);
            }

            assertThat(schedulerOfA.getQueue().size())
                    .as("A after %d offers: the idle manager's ticks and one watch: %s", OFFERS, schedulerOfA.getQueue())
                    .isEqualTo(idleA + 1);
        } finally {
            threadOfB.shutdownNow();
            schedulerOfA.shutdownNow();
        }
        assertThat(redis.lockStateLeftBehind(LONG_COMMAND_TIMEOUT.toMillis())).isEmpty();
    }

    private static String lockValue(String name) {
        return (String) RespClient.call(redis.node().port(), "GET", "locksmith:{" + name + "}");
    }

    /**
     * @return the ids in the lock's ring of waiting processes, as the lock's value holds them
     */
    private static String ring(String name) {
        String value = lockValue(name);
        return value == null ? "" : value.split("\\|", 6)[4];
    }
}
