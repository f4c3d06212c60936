package dev.locksmith.internal.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.CountedMetrics;
import dev.locksmith.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A release of the reentrant lock hands it straight to a thread of the same process that waits
 * for it: one script call passes the lock and a new fencing token, instead of a release, a
 * wake-up and an acquisition.
 */
class HandOverTest {
    private static final long COMMAND_TIMEOUT_MILLIS = 5_000;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void threadsOfOneProcessPassTheLockInAboutOneScriptCallPerCycle() throws Exception {
        int threads = 4;
        int cyclesEach = 250;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (CountedMetrics metrics = new CountedMetrics();
             LockManager locks = Locksmith.builder().redisUri(redis.uri()).openTelemetry(metrics.openTelemetry()).build()) {
            DistributedLock lock = locks.getLock("passed");
            lock.lock(); // loads the scripts, outside the count
            lock.unlock();
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger counter = new AtomicInteger(); // read, then written: only the lock keeps updates
            List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch start = new CountDownLatch(1);
            redis.node().command("CONFIG", "RESETSTAT");

            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                workers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < cyclesEach; i++) {
                        assertThat(lock.tryLock(30, TimeUnit.SECONDS)).isTrue();
                        try {
                            assertThat(inside.incrementAndGet()).as("holders at once").isEqualTo(1);
                            counter.set(counter.get() + 1);
                            tokens.add(lock.fencingToken());
                            inside.decrementAndGet();
                        } finally {
                            lock.unlock();
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> worker : workers) {
                worker.get(2, TimeUnit.MINUTES);
            }
            long cycles = (long) threads * cyclesEach;

            assertThat(counter.get()).as("no lost update").isEqualTo(cycles);
            assertThat(tokens).as("fencing tokens strictly increase").isSorted().doesNotHaveDuplicates();
            assertThat(metrics.total("locksmith.lock.handovers")).as("cycles that began with a hand-over")
                    .isGreaterThan(cycles / 2);
            assertThat(scriptCalls()).as("script calls for %d cycles", cycles).isLessThanOrEqualTo(cycles * 3 / 2);
            assertThat(redis.lockStateLeftBehind(COMMAND_TIMEOUT_MILLIS)).isEmpty();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aHoldLostBeforeItsHandOverIsReportedAndTheWaiterAsksRedisItself() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock lock = locks.getLock("lost-before-hand-over");
            lock.lock();
            long lostToken = lock.fencingToken();
            AtomicReference<Long> waiterToken = new AtomicReference<>();
            Thread waiter = startWaiter(lock, waiterToken);
            awaitWaitingInLine(locks, "lost-before-hand-over");

            redis.node().command("DEL", "locksmith:{lost-before-hand-over}"); // as if the lease ran out

            assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
            waiter.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(waiterToken.get()).as("the waiter's token").isGreaterThan(lostToken);
            assertThat(lock.isLocked()).isFalse();
        }
    }

    @Test
    void aWaiterBehindAHolderOfItsOwnProcessHearsAForceUnlockElsewhere() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build();
             LockManager admin = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock lock = locks.getLock("forced");
            lock.lock();
            AtomicReference<Long> waiterToken = new AtomicReference<>();
            Thread waiter = startWaiter(lock, waiterToken);
            awaitWaitingInLine(locks, "forced");

            assertThat(admin.getLock("forced").forceUnlock()).isTrue();

            waiter.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(waiterToken.get()).as("the waiter got the lock while the holder still thought it held it")
                    .isNotNull();
            assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        }
    }

    /**
     * Starts a thread that waits up to 10 s for the lock, records its fencing token, and releases.
     */
    private static Thread startWaiter(DistributedLock lock, AtomicReference<Long> token) {
        Thread waiter = new Thread(() -> {
            try {
                if (lock.tryLock(10, TimeUnit.SECONDS)) {
                    token.set(lock.fencingToken());
                    lock.unlock();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "waiter");
        waiter.start();
        return waiter;
    }

    /**
     * Waits until the only waiter of {@code lockName} in {@code locks} sleeps in the local line,
     * where a hand-over or a wake-up reaches it, as the manager's lock protocol counts it.
     */
    private static void awaitWaitingInLine(LockManager locks, String lockName) {
        Await.until("the waiter sleeps in the line", Duration.ofSeconds(10),
                () -> ((DefaultLockManager) locks).sleepingWaiters(lockName).inLine() == 1);
    }

    private static long scriptCalls() {
        for (String line : redis.node().command("INFO", "commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:")) {
                return Long.parseLong(line.replaceAll("^[a-z_|]*:calls=(\\d+),.*", "$1"));
            }
        }
        return 0;
    }
}
