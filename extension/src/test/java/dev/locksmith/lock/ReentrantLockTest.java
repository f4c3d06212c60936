package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.lock.DefaultLockManager;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.RespClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The reentrant lock's behaviour against a real Redis, seen by its users.
 */
class ReentrantLockTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final List<LockManager> managers = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void closeManagers() {
        threads.shutdownNow();
        managers.forEach(LockManager::close);
    }

    private LockManager manager() {
        return manager(Duration.ofSeconds(30));
    }

    private LockManager manager(Duration lease) {
        LockManager manager = Locksmith.builder().redisUri(redis.uri()).leaseTime(lease).build();
        managers.add(manager);
        return manager;
    }

    private <T> T inOtherThread(java.util.concurrent.Callable<T> action) throws Exception {
        return threads.submit(action).get(30, TimeUnit.SECONDS);
    }

    @Test
    void lockAndUnlockLeaveOnlyTheFencingCounterBehind() {
        LockManager locks = manager();
        DistributedLock lock = locks.getLock("orders");

        lock.lock();
        assertThat(lock.isLocked()).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();

        assertThat(lock.isLocked()).isFalse();
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    @Test
    void holderMayLockAgainAndMustUnlockAsOften() {
        DistributedLock lock = manager().getLock("reentrant");

        for (int i = 0; i < 5; i++) {
            lock.lock();
        }
        long token = lock.fencingToken();

        assertThat(lock.getHoldCount()).isEqualTo(5);
        for (int i = 4; i > 0; i--) {
            lock.unlock();
            assertThat(lock.getHoldCount()).isEqualTo(i);
            assertThat(lock.isLocked()).isTrue();
            assertThat(lock.fencingToken()).isEqualTo(token);
        }
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
        assertThat(lock.getHoldCount()).isZero();
    }

    @Test
    void onlyTheHolderCanUnlock() throws Exception {
        DistributedLock lock = manager().getLock("mine");
        lock.lock();

        Throwable fromOtherThread = inOtherThread(() -> {
            try {
                lock.unlock();
                return null;
            } catch (IllegalMonitorStateException e) {
                return e;
            }
        });
        Throwable fromOtherManager = catchThrowable(() -> manager().getLock("mine").unlock());

        assertThat(fromOtherThread).isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("'mine'");
        assertThat(fromOtherManager).isInstanceOf(IllegalMonitorStateException.class);
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(lock.getHoldCount()).isEqualTo(1);
        lock.unlock();
    }

    @Test
    void fixedLeaseExpiresByItselfAndTheLateUnlockReportsTheLoss() throws Exception {
        DistributedLock lock = manager().getLock("short");
        DistributedLock sameInOtherManager = manager().getLock("short");

        lock.lock(300, TimeUnit.MILLISECONDS);
        long start = System.nanoTime();
        boolean otherGotIt = sameInOtherManager.tryLock(5, TimeUnit.SECONDS);
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(otherGotIt).isTrue();
        assertThat(waited).isBetween(150L, 1_000L);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class).hasMessageContaining("'short'");
        assertThat(sameInOtherManager.isLocked()).as("the loser's unlock leaves the new holder alone").isTrue();
        sameInOtherManager.unlock();
    }

    @Test
    void watchdogKeepsTheLockForThreeLeasesAndMore() throws Exception {
        Duration lease = Duration.ofMillis(400);
        DistributedLock lock = manager(lease).getLock("long-job");
        DistributedLock rival = manager(lease).getLock("long-job");
        lock.lock();

        long until = System.nanoTime() + lease.multipliedBy(3).toNanos();
        int attempts = 0;
        while (System.nanoTime() < until) {
            assertThat(rival.tryLock(50, TimeUnit.MILLISECONDS)).as("rival attempt %d", attempts).isFalse();
            attempts++;
        }

        assertThat(attempts).isGreaterThan(5);
        assertThat(lock.remainingLease()).isPositive();
        lock.unlock();
        assertThat(rival.tryLock()).isTrue();
        rival.unlock();
    }

    @Test
    void waiterIsWokenByTheReleaseMessageWithoutPolling() throws Exception {
        DistributedLock holder = manager().getLock("wake");
        DistributedLock waiter = manager().getLock("wake");
        holder.lock();

        Future<Long> acquiredAt = threads.submit(() -> {
            waiter.lock();
            long at = System.nanoTime();
            waiter.unlock();
            return at;
        });
        awaitTrue(() -> subscribers("locksmith:{wake}:released") == 1, Duration.ofSeconds(10));
        long releasedAt = System.nanoTime();
        holder.unlock();

        long wokeAfterMillis = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(10, TimeUnit.SECONDS) - releasedAt);
        assertThat(wokeAfterMillis).as("lease is 30 s, so only the release message can wake it this fast")
                .isLessThan(200);
        awaitTrue(() -> subscribers("locksmith:{wake}:released") == 0, Duration.ofSeconds(5));
    }

    @Test
    void tryLockGivesUpAtItsDeadline() throws Exception {
        manager().getLock("busy").lock();
        DistributedLock lock = manager().getLock("busy");

        long start = System.nanoTime();
        boolean acquired = lock.tryLock(300, TimeUnit.MILLISECONDS);
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(acquired).isFalse();
        assertThat(waited).isBetween(300L, 360L);
        assertThat(lock.tryLock()).isFalse();
    }

    @Test
    void lockInterruptiblyStopsWaitingWhenInterrupted() throws Exception {
        manager().getLock("interrupt-me").lock();
        DistributedLock lock = manager().getLock("interrupt-me");
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                lock.lockInterruptibly();
                outcome.complete(null);
            } catch (Throwable e) {
                outcome.complete(e);
            }
        });
        waiter.start();
        awaitTrue(() -> subscribers("locksmith:{interrupt-me}:released") == 1, Duration.ofSeconds(10));

        waiter.interrupt();

        assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        assertThat(lock.getHoldCount()).isZero();
        awaitTrue(() -> subscribers("locksmith:{interrupt-me}:released") == 0, Duration.ofSeconds(5));
    }

    @Test
    void fencingTokensIncreaseWithEveryNewHolder() throws Exception {
        LockManager first = manager();
        LockManager second = manager();
        List<Long> tokens = new ArrayList<>();

        for (int i = 0; i < 6; i++) {
            DistributedLock lock = (i % 2 == 0 ? first : second).getLock("fenced");
            lock.lock();
            tokens.add(lock.fencingToken());
            lock.unlock();
        }

        assertThat(tokens).isSorted().doesNotHaveDuplicates();
        assertThatThrownBy(() -> first.getLock("fenced").fencingToken())
                .isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void forceUnlockFreesTheLockAndTheHolderLearnsOfTheLoss() throws Exception {
        DistributedLock lock = manager().getLock("forced");
        lock.lock();

        assertThat(manager().getLock("forced").forceUnlock()).isTrue();

        assertThat(lock.isLocked()).isFalse();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(lock.getHoldCount()).isZero();
        assertThat(manager().getLock("forced").forceUnlock()).isFalse();
    }

    @Test
    void watchdogMarksAHoldLostWhenRedisNoLongerHasIt() throws Exception {
        DefaultLockManager locks = (DefaultLockManager) manager(Duration.ofMillis(300));
        DistributedLock lock = locks.getLock("vanishing");
        lock.lock();

        redis.node().command("DEL", "locksmith:{vanishing}");
        awaitTrue(() -> locks.runtime().renewer().trackedCount() == 0, Duration.ofSeconds(5));

        assertThatThrownBy(lock::fencingToken).isInstanceOf(LockLostException.class);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class).hasMessageContaining("'vanishing'");
        assertThat(lock.tryLock()).as("after the loss is reported the lock can be taken afresh").isTrue();
        lock.unlock();
    }

    @Test
    void closingTheManagerReleasesItsLocksAndRefusesFurtherUse() throws Exception {
        LockManager closing = Locksmith.builder().redisUri(redis.uri()).build();
        DistributedLock lock = closing.getLock("closing");
        lock.lock();

        closing.close();
        closing.close();

        assertThat(manager().getLock("closing").tryLock()).isTrue();
        assertThatThrownBy(lock::lock).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> closing.getLock("x")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void manyContendedAcquisitionsLeaveNoSubscriptionOrWaiterBehind() throws Exception {
        DefaultLockManager locks = (DefaultLockManager) manager();
        DefaultLockManager rivals = (DefaultLockManager) manager();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            LockManager source = t % 2 == 0 ? locks : rivals;
            int thread = t;
            workers.add(threads.submit(() -> {
                start.await();
                for (int i = 0; i < 250; i++) {
                    DistributedLock lock = source.getLock("hot-" + ((thread + i) % 3));
                    lock.lock();
                    try {
                        maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    } finally {
                        inside.decrementAndGet();
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

        assertThat(locks.runtime().waitingState()).isEqualTo("channels=0, contended names=0, holds=0, renewed=0");
        assertThat(rivals.runtime().waitingState()).isEqualTo("channels=0, contended names=0, holds=0, renewed=0");
        awaitTrue(() -> ((List<?>) RespClient.call(redis.node().port(), "PUBSUB", "CHANNELS")).isEmpty(),
                Duration.ofSeconds(5));
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    private static long subscribers(String channel) {
        List<?> reply = (List<?>) RespClient.call(redis.node().port(), "PUBSUB", "NUMSUB", channel);
        return Long.parseLong(reply.get(1).toString());
    }

    /**
     * Waits for a condition that another thread or process brings about, with a deadline.
     */
    static void awaitTrue(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + timeout);
            }
            Thread.onSpinWait();
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    private static Throwable catchThrowable(Runnable action) {
        try {
            action.run();
            return null;
        } catch (Throwable e) {
            return e;
        }
    }
}
