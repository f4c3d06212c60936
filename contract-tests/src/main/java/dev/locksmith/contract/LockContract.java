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
 * {@link #lockOf(LockManager, String)} for another kind of one name, or extend
 * {@link MultiLockContract} for a multi-lock. The timed tests' bounds suit any topology on a busy
 * machine; a Redis on this machine may be held to tighter ones ({@link #timing()}).
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

    /**
     * @param name the name given to {@link #lockOf(LockManager, String)}
     * @return the names of the locks that lock takes, whose release a waiter for it listens for:
     *         {@code name} itself by default; a multi-lock's locks' names
     */
    protected List<String> namesOf(String name) {
        return List.of(name);
    }

    /**
     * @param lock a lock of {@link #lockOf(LockManager, String)}
     * @return the fencing tokens the current thread holds it with: its one token by default, one
     *         per lock of a multi-lock
     * @throws IllegalMonitorStateException if the current thread does not hold it
     * @throws LockLostException if the hold was lost
     */
    protected List<Long> fencingTokens(DistributedLock lock) {
        return List.of(lock.fencingToken());
    }

    /**
     * @return how soon things happen on the Redis under test, as the timed tests check them;
     *         {@link Timing#ANY_REDIS} by default
     */
    protected Timing timing() {
        return Timing.ANY_REDIS;
    }

    /**
     * The bounds of the timed tests.
     *
     * @param watchdogLease  the lease the watchdog must keep renewing for three leases
     * @param wakeUp         how soon after a release a waiter woken by the release message holds the
     *                       lock, at the most
     * @param deadlineWait   how long a {@code tryLock} with a deadline of 300 ms waits, at the most
     * @param expiryWait     how long another manager waits for a lock taken with a fixed lease of
     *                       300 ms, at the most
     */
    public record Timing(Duration watchdogLease, Duration wakeUp, Duration deadlineWait, Duration expiryWait) {
        /** For any topology on a busy machine: replicas, Sentinel, a cluster, RedLock. */
        public static final Timing ANY_REDIS = new Timing(Duration.ofSeconds(1), Duration.ofSeconds(1),
                Duration.ofMillis(1_500), Duration.ofSeconds(2));
        /** For one master on this machine: a round trip is well under a millisecond. */
        public static final Timing LOCAL_MASTER = new Timing(Duration.ofMillis(400), Duration.ofMillis(200),
                Duration.ofMillis(400), Duration.ofSeconds(1));
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
        List<Long> token = fencingTokens(lock);

        assertThat(lock.getHoldCount()).isEqualTo(5);
        for (int i = 4; i > 0; i--) {
            lock.unlock();
            assertThat(lock.getHoldCount()).isEqualTo(i);
            assertThat(lock.isLocked()).isTrue();
            assertThat(fencingTokens(lock)).as("a re-entry keeps the token").isEqualTo(token);
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
        assertThat(waited).as("free when the lease ran out, not before, and woken by the expiry").isBetween(150L, timing().expiryWait().toMillis());
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class).hasMessageContaining("short");
        assertThat(sameInOtherManager.isLocked()).as("the loser's unlock leaves the new holder alone").isTrue();
        sameInOtherManager.unlock();
    }

    @Test
    void watchdogKeepsTheLockForThreeLeasesAndMore() throws Exception {
        // Renewed every third: a renewal may be late by a third of the lease.
        Duration lease = timing().watchdogLease();
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
        awaitWaiters("wake", 1);
        long releasedAt = System.nanoTime();
        holder.unlock();

        long wokeAfterMillis = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(10, TimeUnit.SECONDS) - releasedAt);
        assertThat(wokeAfterMillis).as("the lease is 30 s, so only the release message can wake it this fast")
                .isLessThan(timing().wakeUp().toMillis());
        awaitWaiters("wake", 0);
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
        assertThat(waited).isBetween(300L, timing().deadlineWait().toMillis());
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
        awaitWaiters("interrupt-me", 1);

        waiter.interrupt();

        assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        assertThat(lock.getHoldCount()).isZero();
        awaitWaiters("interrupt-me", 0);
    }

    @Test
    void fencingTokensIncreaseWithEveryNewHolder() {
        LockManager first = manager();
        LockManager second = manager();
        List<List<Long>> tokens = new ArrayList<>();

        for (int i = 0; i < 6; i++) {
            DistributedLock lock = lockOf(i % 2 == 0 ? first : second, "fenced");
            lock.lock();
            tokens.add(fencingTokens(lock));
            lock.unlock();
        }

        for (int part = 0; part < tokens.get(0).size(); part++) {
            int of = part;
            assertThat(tokens.stream().map(held -> held.get(of)).toList()).as("the tokens of lock %d", part)
                    .isSorted().doesNotHaveDuplicates();
        }
        assertThatThrownBy(() -> fencingTokens(lockOf(first, "fenced"))).isInstanceOf(IllegalMonitorStateException.class);
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
                () -> catchThrowable(() -> fencingTokens(lock)) instanceof LockLostException);

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
        awaitWaiters("hot-0", 0);
        awaitWaiters("hot-1", 0);
        assertThat(lockOf(locks, "hot-0").isLocked()).isFalse();
        assertThat(lockOf(locks, "hot-1").isLocked()).isFalse();
    }

    /**
     * Waits until {@code processes} processes listen for the release of the locks of
     * {@link #namesOf(String) name}, counted together.
     */
    private void awaitWaiters(String name, int processes) {
        List<String> names = namesOf(name);
        Await.until(processes + " process(es) listening for the release of " + names, Duration.ofSeconds(10),
                () -> names.stream().mapToInt(this::listeningProcesses).sum() == processes);
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
