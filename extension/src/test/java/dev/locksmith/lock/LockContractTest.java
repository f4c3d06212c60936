package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.testing.Await;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What every exclusive lock kind promises, against a real Redis, seen by its users. Each kind
 * runs the whole contract through a subclass at the end of this file.
 */
abstract class LockContractTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final List<LockManager> managers = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void closeManagers() {
        threads.shutdownNow();
        managers.forEach(LockManager::close);
    }

    /**
     * @return the lock of this kind named {@code name}, from {@code locks}
     */
    abstract DistributedLock lockOf(LockManager locks, String name);

    /**
     * @return the release channels a waiter for {@code name} listens on
     */
    abstract List<String> channels(String name);

    /**
     * @return the fencing tokens the current thread holds {@code lock} with: its one token, or
     *         one per lock of a multi-lock
     */
    List<Long> tokens(DistributedLock lock) {
        return List.of(lock.fencingToken());
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
        DistributedLock lock = lockOf(locks, "orders");

        lock.lock();
        assertThat(lock.isLocked()).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();

        assertThat(lock.isLocked()).isFalse();
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    @Test
    void holderMayLockAgainAndMustUnlockAsOften() {
        DistributedLock lock = lockOf(manager(), "reentrant");

        for (int i = 0; i < 5; i++) {
            lock.lock();
        }
        List<Long> token = tokens(lock);

        assertThat(lock.getHoldCount()).isEqualTo(5);
        for (int i = 4; i > 0; i--) {
            lock.unlock();
            assertThat(lock.getHoldCount()).isEqualTo(i);
            assertThat(lock.isLocked()).isTrue();
            assertThat(tokens(lock)).isEqualTo(token);
        }
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
        assertThat(lock.getHoldCount()).isZero();
    }

    @Test
    void onlyTheHolderCanUnlock() throws Exception {
        DistributedLock lock = lockOf(manager(), "mine");
        lock.lock();

        Throwable fromOtherThread = inOtherThread(() -> {
            try {
                lock.unlock();
                return null;
            } catch (IllegalMonitorStateException e) {
                return e;
            }
        });
        Throwable fromOtherManager = catchThrowable(() -> lockOf(manager(), "mine").unlock());

        assertThat(fromOtherThread).isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("mine");
        assertThat(fromOtherManager).isInstanceOf(IllegalMonitorStateException.class);
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(lock.getHoldCount()).isEqualTo(1);
        lock.unlock();
    }

    @Test
    void fixedLeaseExpiresByItselfAndTheLateUnlockReportsTheLoss() throws Exception {
        DistributedLock lock = lockOf(manager(), "short");
        DistributedLock sameInOtherManager = lockOf(manager(), "short");

        lock.lock(300, TimeUnit.MILLISECONDS);
        long start = System.nanoTime();
        boolean otherGotIt = sameInOtherManager.tryLock(5, TimeUnit.SECONDS);
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(otherGotIt).isTrue();
        assertThat(waited).isBetween(150L, 1_000L);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class).hasMessageContaining("short");
        assertThat(sameInOtherManager.isLocked()).as("the loser's unlock leaves the new holder alone").isTrue();
        sameInOtherManager.unlock();
    }

    @Test
    void watchdogKeepsTheLockForThreeLeasesAndMore() throws Exception {
        Duration lease = Duration.ofMillis(400);
        DistributedLock lock = lockOf(manager(lease), "long-job");
        DistributedLock rival = lockOf(manager(lease), "long-job");
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
        DistributedLock holder = lockOf(manager(), "wake");
        DistributedLock waiter = lockOf(manager(), "wake");
        holder.lock();

        Future<Long> acquiredAt = threads.submit(() -> {
            waiter.lock();
            long at = System.nanoTime();
            waiter.unlock();
            return at;
        });
        Await.until("the waiter listens for releases", Duration.ofSeconds(10), () -> subscribers("wake") == 1);
        long releasedAt = System.nanoTime();
        holder.unlock();

        long wokeAfterMillis = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(10, TimeUnit.SECONDS) - releasedAt);
        assertThat(wokeAfterMillis).as("lease is 30 s, so only the release message can wake it this fast")
                .isLessThan(200);
        Await.until("the waiter stopped listening", Duration.ofSeconds(5), () -> subscribers("wake") == 0);
    }

    @Test
    void tryLockGivesUpAtItsDeadline() throws Exception {
        lockOf(manager(), "busy").lock();
        DistributedLock lock = lockOf(manager(), "busy");

        long start = System.nanoTime();
        boolean acquired = lock.tryLock(300, TimeUnit.MILLISECONDS);
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(acquired).isFalse();
        // The wait ends at the deadline plus one round trip; the slack is for a busy CI machine.
        assertThat(waited).isBetween(300L, 400L);
        assertThat(lock.tryLock()).isFalse();
    }

    @Test
    void lockInterruptiblyStopsWaitingWhenInterrupted() throws Exception {
        lockOf(manager(), "interrupt-me").lock();
        DistributedLock lock = lockOf(manager(), "interrupt-me");
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
        Await.until("the waiter listens for releases", Duration.ofSeconds(10), () -> subscribers("interrupt-me") == 1);

        waiter.interrupt();

        assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        assertThat(lock.getHoldCount()).isZero();
        Await.until("the interrupted waiter stopped listening", Duration.ofSeconds(5), () -> subscribers("interrupt-me") == 0);
    }

    @Test
    void fencingTokensIncreaseWithEveryNewHolder() throws Exception {
        LockManager first = manager();
        LockManager second = manager();
        List<List<Long>> tokens = new ArrayList<>();

        for (int i = 0; i < 6; i++) {
            DistributedLock lock = lockOf(i % 2 == 0 ? first : second, "fenced");
            lock.lock();
            tokens.add(tokens(lock));
            lock.unlock();
        }

        for (int part = 0; part < tokens.get(0).size(); part++) {
            int of = part;
            assertThat(tokens.stream().map(held -> held.get(of)).toList()).as("the tokens of lock %d", part)
                    .isSorted().doesNotHaveDuplicates();
        }
        assertThatThrownBy(() -> tokens(lockOf(first, "fenced")))
                .isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void forceUnlockFreesTheLockAndTheHolderLearnsOfTheLoss() throws Exception {
        DistributedLock lock = lockOf(manager(), "forced");
        lock.lock();

        assertThat(lockOf(manager(), "forced").forceUnlock()).isTrue();

        assertThat(lock.isLocked()).isFalse();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(lock.getHoldCount()).isZero();
        assertThat(lockOf(manager(), "forced").forceUnlock()).isFalse();
    }

    @Test
    void watchdogMarksAHoldLostWhenRedisNoLongerHasIt() throws Exception {
        DefaultLockManager locks = (DefaultLockManager) manager(Duration.ofMillis(300));
        DistributedLock lock = lockOf(locks, "vanishing");
        lock.lock();

        lockOf(manager(), "vanishing").forceUnlock();
        Await.until("the watchdog noticed the loss", Duration.ofSeconds(5),
                () -> locks.statistics().renewed() == 0);

        assertThatThrownBy(() -> tokens(lock)).isInstanceOf(LockLostException.class);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class).hasMessageContaining("vanishing");
        assertThat(lock.tryLock()).as("after the loss is reported the lock can be taken afresh").isTrue();
        lock.unlock();
    }

    @Test
    void closingTheManagerReleasesItsLocksAndRefusesFurtherUse() throws Exception {
        LockManager closing = Locksmith.builder().redisUri(redis.uri()).build();
        DistributedLock lock = lockOf(closing, "closing");
        lock.lock();

        closing.close();
        closing.close();

        assertThat(lockOf(manager(), "closing").tryLock()).isTrue();
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
                    DistributedLock lock = lockOf(source, "hot-" + ((thread + i) % 3));
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

        // A name's subscriptions outlive its last acquisition for a moment (threads often come back soon).
        Await.until("every subscription ends", Duration.ofSeconds(10),
                () -> locks.statistics().toString().equals("channels=0, contended names=0, holds=0, renewed=0")
                        && rivals.statistics().toString().equals("channels=0, contended names=0, holds=0, renewed=0"));
        Await.until("no channel is subscribed", Duration.ofSeconds(5),
                () -> ((List<?>) RespClient.call(redis.node().port(), "PUBSUB", "CHANNELS")).isEmpty());
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    private long subscribers(String name) {
        long total = 0;
        for (String channel : channels(name)) {
            List<?> reply = (List<?>) RespClient.call(redis.node().port(), "PUBSUB", "NUMSUB", channel);
            total += Long.parseLong(reply.get(1).toString());
        }
        return total;
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
