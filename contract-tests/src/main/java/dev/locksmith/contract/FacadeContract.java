package dev.locksmith.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LeasedLock;
import dev.locksmith.LockInfo;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.testing.Await;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The six ways {@link java.util.concurrent.locks.Lock} acquires, their interrupt rules and their
 * argument checks, as {@link LeasedLock} promises them, for every kind of lock on the Redis under
 * test: the reentrant, fair, read, write and multi-lock. Each kind is blocked by the hold that
 * excludes it, taken by another manager: the same lock, the write lock for a reader, one of a
 * multi-lock's locks.
 *
 * <pre>{@code
 * class OurRedisFacadeContractTest extends FacadeContract {
 *     @Override
 *     protected RedisUnderTest redis() {
 *         return new StagingRedis();
 *     }
 * }
 * }</pre>
 */
public abstract class FacadeContract extends StoreContract {
    private LockManager locks;
    private LockManager blockers;

    /**
     * One kind of lock, as the parameter of each test.
     *
     * @param name    the kind
     * @param lockOf  the lock of that kind and name from a manager
     * @param blocker the lock that, held by another manager, keeps this one from being acquired
     * @param blocked the name of the lock a waiter of this kind waits for, blocked by that hold
     */
    public record Kind(String name, BiFunction<LockManager, String, LeasedLock> lockOf,
                       BiFunction<LockManager, String, DistributedLock> blocker, UnaryOperator<String> blocked) {
        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * @return every kind of lock: reentrant, fair, read, write, multi
     */
    protected static Stream<Arguments> kinds() {
        return Stream.of(
                new Kind("reentrant", LockManager::getLock, LockManager::getLock, n -> n),
                new Kind("fair", LockManager::getFairLock, LockManager::getFairLock, n -> n),
                new Kind("read", (m, n) -> m.getReadWriteLock(n).readLock(), (m, n) -> m.getReadWriteLock(n).writeLock(),
                        n -> n),
                new Kind("write", (m, n) -> m.getReadWriteLock(n).writeLock(), (m, n) -> m.getReadWriteLock(n).writeLock(),
                        n -> n),
                new Kind("multi", (m, n) -> m.getMultiLockOf(m.getLock(n + "-a"), m.getLock(n + "-b")),
                        (m, n) -> m.getLock(n + "-b"), n -> n + "-b"))
                .map(Arguments::of);
    }

    @BeforeEach
    void managers() {
        locks = manager();
        blockers = manager();
    }

    private DistributedLock blocked(Kind kind, String name) {
        DistributedLock blocker = kind.blocker().apply(blockers, name);
        blocker.lock();
        return blocker;
    }

    /**
     * Waits until a waiter for the lock of {@code kind} and {@code name} listens for its release or
     * stands in its queue: from then on, the release reaches it.
     */
    private void awaitWaiting(Kind kind, String name) {
        String blockedName = kind.blocked().apply(name);
        Await.until("the waiter waits for " + blockedName, Duration.ofSeconds(10), () -> {
            LockInfo info = blockers.describe(blockedName);
            return info.waitingProcesses() > 0 || info.waitingInQueue() > 0;
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void lockWaitsThroughAnInterruptAndRestoresIt(Kind kind) throws Exception {
        DistributedLock blocker = blocked(kind, "through");
        LeasedLock lock = kind.lockOf().apply(locks, "through");
        CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            Thread.currentThread().interrupt();
            lock.lock();
            boolean restored = Thread.currentThread().isInterrupted();
            lock.unlock();
            interruptedAfter.complete(restored);
        });
        waiter.start();
        awaitWaiting(kind, "through");
        waiter.interrupt();

        blocker.unlock();

        assertThat(interruptedAfter.get(10, TimeUnit.SECONDS)).as("interrupt status restored on return").isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void lockInterruptiblyGivesUpWhenInterruptedBeforeOrWhileWaiting(Kind kind) throws Exception {
        DistributedLock blocker = blocked(kind, "interruptible");
        LeasedLock lock = kind.lockOf().apply(locks, "interruptible");

        Thread.currentThread().interrupt();
        assertThatThrownBy(lock::lockInterruptibly).isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).as("the status is cleared, as Lock promises").isFalse();

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
        awaitWaiting(kind, "interruptible");
        waiter.interrupt();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        blocker.unlock();
        DistributedLock again = kind.blocker().apply(blockers, "interruptible");
        assertThat(again.tryLock(5, TimeUnit.SECONDS)).as("nothing was left held").isTrue();
        again.unlock();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void timedTryLockGivesUpWhenInterrupted(Kind kind) {
        blocked(kind, "timed");
        LeasedLock lock = kind.lockOf().apply(locks, "timed");

        Thread.currentThread().interrupt();

        assertThatThrownBy(() -> lock.tryLock(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        assertThat(lock.isHeldByCurrentThread()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void tryLockMakesItsOneAttemptWhateverTheInterruptStatusAndKeepsIt(Kind kind) {
        LeasedLock lock = kind.lockOf().apply(locks, "attempt");

        Thread.currentThread().interrupt();
        boolean acquired = lock.tryLock();

        assertThat(Thread.interrupted()).as("the status is kept").isTrue();
        assertThat(acquired).isTrue();
        lock.unlock();
        DistributedLock blocker = blocked(kind, "attempt");
        assertThat(lock.tryLock()).as("one attempt, no wait, while blocked").isFalse();
        blocker.unlock();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void badArgumentsAreRefusedNamingTheValue(Kind kind) {
        LeasedLock lock = kind.lockOf().apply(locks, "arguments");

        assertThatThrownBy(() -> lock.lock(0, TimeUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 SECONDS");
        assertThatThrownBy(() -> lock.lock(1, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null");
        assertThatThrownBy(() -> lock.tryLock(1, -2, TimeUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-2 SECONDS").hasMessageContaining("-1");
        assertThatThrownBy(() -> lock.tryLock(1, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(lock::newCondition).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aFixedLeaseEndsByItself(Kind kind) throws Exception {
        LeasedLock lock = kind.lockOf().apply(locks, "fixed");
        lock.lock(300, TimeUnit.MILLISECONDS);

        DistributedLock other = kind.blocker().apply(blockers, "fixed");

        assertThat(other.tryLock(5, TimeUnit.SECONDS)).as("free once the lease ran out").isTrue();
        other.unlock();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(lock.remainingLease()).isEqualTo(Duration.ZERO);
    }
}
