package dev.locksmith.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedReadWriteLock;
import dev.locksmith.LockHolder;
import dev.locksmith.LockInfo;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.lock.LockWorker;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.IndependentMasters;
import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.JavaProcess;
import dev.locksmith.testing.RedisServerExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code LockManager.describe}: who holds a lock, from any process.
 */
class DescribeTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aHolderInAnotherJvmIsNamedByItsProcessAndThread() {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build();
             JavaProcess worker = JavaProcess.start(LockWorker.class, "hold", redis.uri(), "nightly-job", "30000")) {
            long token = Long.parseLong(worker.awaitLine("HELD ", Duration.ofSeconds(30)).substring(5));

            LockInfo info = locks.describe("nightly-job");

            assertThat(info.isHeld()).isTrue();
            LockHolder holder = info.holders().get(0);
            assertThat(holder.mode()).isEqualTo("exclusive");
            assertThat(holder.process()).as("the other JVM's description").contains("pid " + worker.pid());
            assertThat(holder.thread()).isEqualTo("main");
            assertThat(holder.holdCount()).isEqualTo(1);
            assertThat(holder.fencingToken()).isEqualTo(token);
            assertThat(holder.since()).isBefore(Instant.now().plusSeconds(1)).isAfter(Instant.now().minusSeconds(60));
            assertThat(holder.leaseLeft()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
        }
    }

    @Test
    void aLiveHolderIsNamedAgainWithinOneWatchdogTickAfterRedisLostItsData() {
        Duration lease = Duration.ofMillis(1_500);
        try (LockManager holderSide = Locksmith.builder().redisUri(redis.uri()).leaseTime(lease).build();
             LockManager observer = Locksmith.builder().redisUri(redis.uri()).build()) {
            redis.node().command("FLUSHALL"); // as a restart without persistence does: every key is gone
            DistributedLock lock = holderSide.getLock("after-data-loss");
            lock.lock();

            Duration named = Await.until("the holder's process is named", lease,
                    () -> observer.describe("after-data-loss").holders().get(0).process() != null);

            assertThat(named).as("within one watchdog tick, a third of the lease")
                    .isLessThanOrEqualTo(lease.dividedBy(3).plusMillis(250));
            lock.unlock();
        }
    }

    @Test
    void readersWaitersAndTheApplicationNameAreShown() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).applicationName("shop").build()) {
            DistributedReadWriteLock shelf = locks.getReadWriteLock("shelf");
            CountDownLatch reading = new CountDownLatch(2);
            CountDownLatch done = new CountDownLatch(1);
            for (int i = 0; i < 2; i++) {
                Thread reader = new Thread(() -> {
                    shelf.readLock().lock();
                    reading.countDown();
                    try {
                        done.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        shelf.readLock().unlock();
                    }
                }, "reader-" + i);
                reader.setDaemon(true);
                reader.start();
            }
            assertThat(reading.await(10, TimeUnit.SECONDS)).isTrue();
            Thread writer = new Thread(() -> {
                try {
                    if (shelf.writeLock().tryLock(20, TimeUnit.SECONDS)) {
                        shelf.writeLock().unlock();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "writer");
            writer.start();
            // The writer queues in Redis, then listens for the release: wait for both.
            Await.until("the writer queues and listens", Duration.ofSeconds(10), () -> {
                LockInfo now = locks.describe("shelf");
                return now.waitingInQueue() == 1 && now.waitingProcesses() == 1;
            });

            LockInfo info = locks.describe("shelf");

            assertThat(info.holders()).extracting(LockHolder::mode).containsOnly("read");
            assertThat(info.holders()).extracting(LockHolder::thread).containsExactlyInAnyOrder("reader-0", "reader-1");
            assertThat(info.holders()).allSatisfy(holder -> assertThat(holder.process()).endsWith("application shop"));
            assertThat(info.waitingProcesses()).as("this JVM listens for the release").isEqualTo(1);
            done.countDown();
            writer.join(20_000);
            assertThat(locks.describe("shelf").isHeld()).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(value = RedisMode.class, names = {"CLUSTER", "REDLOCK"})
    void aHolderIsDescribedInClusterAndRedLockModesToo(RedisMode mode) throws Exception {
        try (AutoCloseable servers = mode == RedisMode.CLUSTER ? RedisCluster.start() : IndependentMasters.start(3)) {
            String uri = servers instanceof RedisCluster cluster ? cluster.seedsUri() : ((IndependentMasters) servers).uris();
            try (LockManager holder = Locksmith.builder().mode(mode).redisUri(uri).applicationName("billing").build();
                 LockManager observer = Locksmith.builder().mode(mode).redisUri(uri).build()) {
                DistributedLock lock = holder.getFairLock("}odd{name");
                lock.lock();
                try {
                    LockInfo info = observer.describe("}odd{name");
                    assertThat(info.holders()).singleElement().satisfies(one -> {
                        assertThat(one.mode()).isEqualTo("fair");
                        assertThat(one.process()).endsWith("application billing");
                        assertThat(one.fencingToken()).isEqualTo(lock.fencingToken());
                    });
                } finally {
                    lock.unlock();
                }
                assertThat(observer.describe("}odd{name").isHeld()).isFalse();
            }
        }
    }

    @Test
    void aFreeLockHasNoHoldersAndAClosedManagerNoLongerDescribesItself() {
        String managerKeys;
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock lock = locks.getLock("free");
            assertThat(locks.describe("free").holders()).isEmpty();
            lock.lock();
            assertThat(locks.describe("free").holders()).hasSize(1);
            lock.unlock();
            managerKeys = redis.node().command("KEYS", "locksmith:manager:*");
            assertThat(managerKeys).isNotEqualTo("[]");
        }
        assertThat(redis.node().command("KEYS", "locksmith:manager:*")).isEqualTo("[]");
    }
}
