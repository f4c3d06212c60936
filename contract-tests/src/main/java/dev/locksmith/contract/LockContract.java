package dev.locksmith.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What a lock of one name promises on the Redis under test, seen by its users: exclusion between
 * managers, re-entry, only the holder releases, leases that expire or that the watchdog keeps, a
 * wake-up by the release message rather than by polling, deadlines and interrupts, fencing tokens
 * that only increase, a forced unlock the holder hears of, a close that releases, and nothing left
 * in Redis after many contended acquisitions. Runs the reentrant lock ({@code getLock}); override
 * {@link #lockOf(LockManager, String)} for another kind of one name.
 *
 * <pre>{@code
 * class OurRedisLockContractTest extends LockContract {
 *     @Override
 *     protected RedisUnderTest redis() {
 *         return new StagingRedis();   // your RedisUnderTest
 *     }
 * }
 * }</pre>
 *
 * <p>About 15 s on a local Redis: the longest tests wait for short leases (300 ms) to run out, or
 * for a lease of 1 s to be renewed three times.
 */
public abstract class LockContract extends StoreContract {

    /**
     * @param locks a manager of this test
     * @param name  the lock's name
     * @return the lock of the kind under test; the reentrant lock by default
     */
    protected DistributedLock lockOf(LockManager locks, String name) {
        return locks.getLock(name);
    }

    @Test
    void lockAndUnlockLeaveOnlyTheFencingCounterBehind() {
        DistributedLock lock = lockOf(manager(), "orders");

        lock.lock();
        assertThat(lock.isLocked()).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();

        assertThat(lock.isLocked()).isFalse();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat(leftBehind()).isEmpty();
    }

    @Test
    void anotherManagerCannotTakeAHeldLock() throws Exception {
        DistributedLock lock = lockOf(manager(), "exclusive");
        DistributedLock rival = lockOf(manager(), "exclusive");
        lock.lock();

        assertThat(rival.tryLock()).isFalse();
        assertThat(rival.isLocked()).as("seen from the other manager").isTrue();
        lock.unlock();

        assertThat(rival.tryLock(5, TimeUnit.SECONDS)).isTrue();
        rival.unlock();
    }

    @Test
    void holderMayLockAgainAndMustUnlockAsOften() {
        DistributedLock lock = lockOf(manager(), "reentrant");

        for (int i = 0; i < 5; i++) {
            lock.lock();
        }
        long token = lock.fencingToken();

        assertThat(lock.getHoldCount()).isEqualTo(5);
        for (int i = 4; i > 0; i--) {
            lock.unlock();
            assertThat(lock.getHoldCount()).isEqualTo(i);
            assertThat(lock.isLocked()).isTrue();
            assertThat(lock.fencingToken()).as("a re-entry keeps the token").isEqualTo(token);
        }
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
        assertThat(lock.getHoldCount()).isZero();
    }

    @Test
    void onlyTheHolderCanUnlock() throws Exception {
        DistributedLock lock = lockOf(manager(), "mine");
        lock.lock();

        Throwable fromOtherThread = inOtherThread(() -> catchThrowable(lock::unlock)).get(30, TimeUnit.SECONDS);
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
        assertThat(waited).as("free when the lease ran out, not before, and woken by the expiry").isBetween(150L, 2_000L);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class).hasMessageContaining("short");
        assertThat(sameInOtherManager.isLocked()).as("the loser's unlock leaves the new holder alone").isTrue();
        sameInOtherManager.unlock();
    }

    @Test
    void watchdogKeepsTheLockForThreeLeasesAndMore() throws Exception {
        // Renewed every third: a renewal may be late by a third of the lease on a busy machine.
        Duration lease = Duration.ofSeconds(1);
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

        Future<Long> acquiredAt = inOtherThread(() -> {
            waiter.lock();
            long at = System.nanoTime();
            waiter.unlock();
            return at;
        });
        awaitListening("wake", 1);
        long releasedAt = System.nanoTime();
        holder.unlock();

        long wokeAfterMillis = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(10, TimeUnit.SECONDS) - releasedAt);
        assertThat(wokeAfterMillis).as("the lease is 30 s, so only the release message can wake it this fast")
                .isLessThan(1_000);
        awaitListening("wake", 0);
    }

    @Test
    void tryLockGivesUpAtItsDeadline() throws Exception {
        lockOf(manager(), "busy").lock();
        DistributedLock lock = lockOf(manager(), "busy");

        long start = System.nanoTime();
        boolean acquired = lock.tryLock(300, TimeUnit.MILLISECONDS);
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(acquired).isFalse();
        // The wait ends at the deadline plus one round trip; the slack is for a busy machine.
        assertThat(waited).isBetween(300L, 1_500L);
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
        awaitListening("interrupt-me", 1);

        waiter.interrupt();

        assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        assertThat(lock.getHoldCount()).isZero();
        awaitListening("interrupt-me", 0);
    }

    @Test
    void fencingTokensIncreaseWithEveryNewHolder() {
        LockManager first = manager();
        LockManager second = manager();
        List<Long> tokens = new ArrayList<>();

        for (int i = 0; i < 6; i++) {
            DistributedLock lock = lockOf(i % 2 == 0 ? first : second, "fenced");
            lock.lock();
            tokens.add(lock.fencingToken());
            lock.unlock();
        }

        assertThat(tokens).isSorted().doesNotHaveDuplicates();
        assertThatThrownBy(() -> lockOf(first, "fenced").fencingToken()).isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void forceUnlockFreesTheLockAndTheHolderLearnsOfTheLoss() {
        DistributedLock lock = lockOf(manager(), "forced");
        lock.lock();

        assertThat(lockOf(manager(), "forced").forceUnlock()).isTrue();

        assertThat(lock.isLocked()).isFalse();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(lock.getHoldCount()).isZero();
        assertThat(lockOf(manager(), "forced").forceUnlock()).isFalse();
    }

    @Test
    void watchdogMarksAHoldLostWhenRedisNoLongerHasIt() {
        DistributedLock lock = lockOf(manager(Duration.ofMillis(300)), "vanishing");
        lock.lock();

        lockOf(manager(), "vanishing").forceUnlock();
        Await.until("the watchdog noticed the loss", Duration.ofSeconds(5),
                () -> catchThrowable(lock::fencingToken) instanceof LockLostException);

        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class).hasMessageContaining("vanishing");
        assertThat(lock.tryLock()).as("after the loss is reported the lock can be taken afresh").isTrue();
        lock.unlock();
    }

    @Test
    void closingTheManagerReleasesItsLocksAndRefusesFurtherUse() {
        LockManager closing = manager();
        DistributedLock lock = lockOf(closing, "closing");
        lock.lock();

        closing.close();
        closing.close();

        DistributedLock again = lockOf(manager(), "closing");
        assertThat(again.tryLock()).isTrue();
        again.unlock();
        assertThatThrownBy(lock::lock).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> closing.getLock("x")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void manyContendedAcquisitionsLeaveNoListenerOrWaiterBehind() throws Exception {
        LockManager locks = manager();
        LockManager rivals = manager();
        AtomicInteger[] inside = {new AtomicInteger(), new AtomicInteger()};
        AtomicInteger maxInside = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            LockManager source = t % 2 == 0 ? locks : rivals;
            int thread = t;
            workers.add(inOtherThread(() -> {
                start.await();
                for (int i = 0; i < 40; i++) {
                    int name = (thread + i) % 2;
                    DistributedLock lock = lockOf(source, "hot-" + name);
                    lock.lock();
                    try {
                        maxInside.accumulateAndGet(inside[name].incrementAndGet(), Math::max);
                    } finally {
                        inside[name].decrementAndGet();
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

        assertThat(maxInside.get()).as("holders of one name at once").isOne();
        // A name's listeners outlive its last acquisition for a moment (threads often come back soon).
        awaitListening("hot-0", 0);
        awaitListening("hot-1", 0);
        assertThat(lockOf(locks, "hot-0").isLocked()).isFalse();
        assertThat(lockOf(locks, "hot-1").isLocked()).isFalse();
    }

    static Throwable catchThrowable(ThrowingAction action) {
        try {
            action.run();
            return null;
        } catch (Throwable e) {
            return e;
        }
    }

    /**
     * An action that may throw anything.
     */
    @FunctionalInterface
    interface ThrowingAction {
        void run() throws Exception;
    }
}
