package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedMultiLock;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the lock contract ({@code dev.locksmith.contract.LockContract}, run on every topology by
 * locksmith-contract-tests) cannot see through the public API: a manager's own statistics and the
 * server's pub/sub channels, after many contended acquisitions and after a hold Redis no longer
 * has. For every exclusive kind of lock, on one master.
 */
class LockManagerStatisticsTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final String NOTHING_UNDER_WAY = "channels=0, contended names=0, holds=0, renewed=0";

    private final List<LockManager> managers = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    /**
     * @param name   the kind
     * @param lockOf the lock of that kind and name from a manager
     * @param tokens the fencing tokens the current thread holds a lock of that kind with
     */
    record Kind(String name, BiFunction<LockManager, String, DistributedLock> lockOf,
                Function<DistributedLock, List<Long>> tokens) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> kinds() {
        Function<DistributedLock, List<Long>> one = lock -> List.of(lock.fencingToken());
        return Stream.of(
                new Kind("reentrant", LockManager::getLock, one),
                new Kind("fair", LockManager::getFairLock, one),
                new Kind("write", (m, n) -> m.getReadWriteLock(n).writeLock(), one),
                new Kind("multi", (m, n) -> m.getMultiLock(m.getLock(n + "-a"), m.getFairLock(n + "-b"),
                        m.getReadWriteLock(n + "-c").writeLock()),
                        lock -> ((DistributedMultiLock) lock).fencingTokens()))
                .map(Arguments::of);
    }

    @AfterEach
    void closeManagers() {
        threads.shutdownNow();
        managers.forEach(LockManager::close);
    }

    private DefaultLockManager manager(Duration lease) {
        LockManager manager = Locksmith.builder().redisUri(redis.uri()).leaseTime(lease).build();
        managers.add(manager);
        return (DefaultLockManager) manager;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void manyContendedAcquisitionsLeaveNoSubscriptionOrWaiterBehind(Kind kind) throws Exception {
        DefaultLockManager locks = manager(Duration.ofSeconds(30));
        DefaultLockManager rivals = manager(Duration.ofSeconds(30));
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
                    DistributedLock lock = kind.lockOf().apply(source, "hot-" + ((thread + i) % 3));
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
                () -> locks.statistics().toString().equals(NOTHING_UNDER_WAY)
                        && rivals.statistics().toString().equals(NOTHING_UNDER_WAY));
        Await.until("no channel is subscribed", Duration.ofSeconds(5),
                () -> ((List<?>) RespClient.call(redis.node().port(), "PUBSUB", "CHANNELS")).isEmpty());
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void theWatchdogStopsRenewingAHoldRedisNoLongerHas(Kind kind) {
        DefaultLockManager locks = manager(Duration.ofMillis(300));
        DistributedLock lock = kind.lockOf().apply(locks, "vanishing");
        lock.lock();

        kind.lockOf().apply(manager(Duration.ofSeconds(30)), "vanishing").forceUnlock();
        Await.until("the watchdog noticed the loss", Duration.ofSeconds(5),
                () -> locks.statistics().renewed() == 0);

        assertThatThrownBy(() -> kind.tokens().apply(lock)).isInstanceOf(LockLostException.class);
    }
}
