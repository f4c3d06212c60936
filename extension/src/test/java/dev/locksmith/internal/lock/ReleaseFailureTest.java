package dev.locksmith.internal.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.CountedMetrics;
import dev.locksmith.testing.RedisFaults;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.ThrowingTelemetry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A release that gets an error, or no answer, never keeps a lock: its hold leaves the watchdog
 * when it is sent, so the lock frees itself within one lease, and nothing is reported lost that
 * was not. Each failure is made on cue with what Redis offers.
 */
class ReleaseFailureTest {
    private static final Duration LEASE = Duration.ofMillis(1_200);

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    static Stream<Arguments> answersRetryingCannotFix() {
        return Stream.of(
                Arguments.of("BUSY", (Function<RedisServerExtension, AutoCloseable>) server -> RedisFaults.busy(server.node())),
                Arguments.of("OOM", (Function<RedisServerExtension, AutoCloseable>) server ->
                        RedisFaults.outOfMemory(server.node())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("answersRetryingCannotFix")
    void aReleaseAnsweredWithAnErrorFreesTheLockWithinOneLease(String error,
            Function<RedisServerExtension, AutoCloseable> fault) throws Exception {
        try (CountedMetrics metrics = new CountedMetrics();
             DefaultLockManager locks = (DefaultLockManager) Locksmith.builder().redisUri(redis.uri()).leaseTime(LEASE)
                     .openTelemetry(metrics.openTelemetry()).build();
             LockManager others = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock lock = locks.getLock("failed-release-" + error);
            lock.lock();

            long failedAt;
            try (AutoCloseable ignored = fault.apply(redis)) {
                assertThatThrownBy(lock::unlock).isInstanceOf(LockException.class).hasMessageContaining(error)
                        .hasMessageContaining("frees itself when its lease runs out");
                failedAt = System.nanoTime();
                assertThat(locks.statistics().holds()).as("holds kept after the failed release").isZero();
                assertThat(locks.statistics().renewed()).as("leases the watchdog still renews").isZero();
            }

            assertThat(others.getLock("failed-release-" + error).tryLock(LEASE.toMillis() + 2_000, TimeUnit.MILLISECONDS))
                    .as("another process gets the lock once the lease ran out").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - failedAt)).isLessThan(LEASE.plusMillis(1_000));
            assertThat(locks.statistics().leasesLost()).as("a failed release is no lost lease").isZero();
            assertThat(metrics.total("locksmith.lock.release.failures")).isEqualTo(1);
            others.getLock("failed-release-" + error).unlock();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("answersRetryingCannotFix")
    void aNestedHoldWhoseInnerReleaseFailsIsFreedByTheOuterRelease(String error,
            Function<RedisServerExtension, AutoCloseable> fault) throws Exception {
        try (DefaultLockManager locks = (DefaultLockManager) Locksmith.builder().redisUri(redis.uri()).leaseTime(LEASE)
                .build();
             LockManager others = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock lock = locks.getLock("nested-failed-release-" + error);
            lock.lock();
            lock.lock();

            try (AutoCloseable ignored = fault.apply(redis)) {
                assertThatThrownBy(lock::unlock).isInstanceOf(LockException.class).hasMessageContaining(error)
                        .hasMessageContaining("held 1 more time");
            }
            assertThat(lock.getHoldCount()).as("the failed inner release still counted").isOne();
            lock.unlock();

            assertThat(locks.statistics().holds()).as("holds kept after the outer release").isZero();
            assertThat(others.getLock("nested-failed-release-" + error).tryLock()).as("free at once").isTrue();
            others.getLock("nested-failed-release-" + error).unlock();
        }
    }

    @Test
    void aNestedHoldWhoseInnerReleaseNeverAnsweredIsFreedByTheOuterRelease() throws Exception {
        try (DefaultLockManager locks = (DefaultLockManager) Locksmith.builder().redisUri(redis.uri()).leaseTime(LEASE)
                .commandTimeout(Duration.ofMillis(300)).build();
             LockManager others = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock lock = locks.getLock("nested-unanswered");
            lock.lock();
            lock.lock();

            loadScripts("hold-count");
            RedisFaults.pauseWrites(redis.node(), Duration.ofMillis(1_000));
            assertThatThrownBy(lock::unlock).isInstanceOf(LockException.class).hasMessageContaining("timed out");
            redis.node().command("DEL", "after-the-pause"); // a write: answered once the pause is over
            lock.unlock();

            assertThat(locks.statistics().holds()).isZero();
            assertThat(others.getLock("nested-unanswered").tryLock()).isTrue();
            others.getLock("nested-unanswered").unlock();
        }
    }

    @Test
    void aReleaseWhoseAnswerNeverCameIsNotTakenForALoss() throws Exception {
        try (CountedMetrics metrics = new CountedMetrics();
             DefaultLockManager locks = (DefaultLockManager) Locksmith.builder().redisUri(redis.uri()).leaseTime(LEASE)
                .commandTimeout(Duration.ofMillis(300)).openTelemetry(metrics.openTelemetry()).build()) {
            DistributedLock lock = locks.getLock("unanswered");
            lock.lock();
            DistributedLock ticking = locks.getLock("ticking"); // its renewals show the watchdog's ticks
            ticking.lock();

            loadScripts("release"); // a paused EVALSHA of an unknown script would come back NOSCRIPT, not run
            RedisFaults.pauseWrites(redis.node(), Duration.ofMillis(1_000));
            assertThatThrownBy(lock::unlock).isInstanceOf(LockException.class).hasMessageContaining("timed out");

            Await.until("the paused release ran", Duration.ofSeconds(5),
                    () -> redis.node().command("EXISTS", "locksmith:{unanswered}").equals("0"));
            long renewals = metrics.total("locksmith.lease.renewals");
            Await.until("two more watchdog ticks", Duration.ofSeconds(5),
                    () -> metrics.total("locksmith.lease.renewals") >= renewals + 2);
            assertThat(locks.statistics().leasesLost()).isZero();
            assertThat(locks.statistics().holds()).as("only the ticking hold").isOne();
            ticking.unlock();
        }
    }

    @Test
    void aHandOverWithoutAnAnswerLetsTheWaiterAskRedisAndItsLeaseCountsFromTheHandOver() throws Exception {
        try (DefaultLockManager locks = (DefaultLockManager) Locksmith.builder().redisUri(redis.uri())
                .commandTimeout(Duration.ofMillis(400)).build()) {
            DistributedLock lock = locks.getLock("handed-unanswered");
            lock.lock();
            AtomicReference<Hold> taken = new AtomicReference<>();
            CompletableFuture<Boolean> waiter = waitInAnotherThread(lock, taken);
            awaitParkedInLine(locks, "handed-unanswered");

            loadScripts("hand-over", "acquire");
            RedisFaults.pauseWrites(redis.node(), Duration.ofMillis(1_200));
            long before = System.nanoTime();
            assertThatThrownBy(lock::unlock).isInstanceOf(LockException.class).hasMessageContaining("Handing over");
            long after = System.nanoTime();

            assertThat(waiter.get(10, TimeUnit.SECONDS)).as("the waiter got the lock").isTrue();
            long leaseStart = taken.get().heldAtLeastUntilNanos() - TimeUnit.MILLISECONDS.toNanos(taken.get().leaseMillis());
            assertThat(leaseStart).as("its lease counts from the hand-over, not from its own later attempt")
                    .isBetween(before, after);
            assertThat(locks.statistics().leasesLost()).as("the releaser's hold was not lost, only released").isZero();
            assertThat(redis.lockStateLeftBehind(400)).isEmpty();
        }
    }

    /**
     * The hand-over runs in Redis once writes resume, but its answer never came: the waiter, given
     * the lock there, asks Redis itself, gets no answer either, and its wait ends on that failure.
     * Nobody here holds the lock then: the clean-up of the waiter's own unanswered attempt, sent
     * after the hand-over on the same connection, drops it, instead of leaving it taken for the
     * whole lease (30 s).
     */
    @Test
    void aWaiterThatGivesUpAfterAnUnansweredHandOverDropsTheHoldItMayHaveBeenGiven() throws Exception {
        String name = "handed-then-abandoned";
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).commandTimeout(Duration.ofMillis(400))
                .build()) {
            DistributedLock lock = locks.getLock(name);
            lock.lock();
            CompletableFuture<Boolean> waiter = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                try {
                    waiter.complete(lock.tryLock(700, TimeUnit.MILLISECONDS));
                } catch (Throwable e) {
                    waiter.completeExceptionally(e);
                }
            }, "abandoning waiter");
            thread.start();
            awaitParkedInLine(locks, name);
            loadScripts("hand-over", "acquire");

            RedisFaults.pauseWrites(redis.node(), Duration.ofMillis(1_500));
            assertThatThrownBy(lock::unlock).isInstanceOf(LockException.class).hasMessageContaining("Handing over");

            assertThatThrownBy(() -> waiter.get(10, TimeUnit.SECONDS)).as("the waiter's wait ends on the failure")
                    .hasCauseInstanceOf(LockException.class);
            Await.until("the hold the hand-over gave the waiter is dropped, well within its 30 s lease",
                    Duration.ofSeconds(5), () -> "0".equals(redis.node().command("EXISTS", "locksmith:{" + name + "}")));
            assertThat(redis.lockStateLeftBehind(400)).isEmpty();
        }
    }

    @Test
    void anErrorWhileAHandOverFailsStillSettlesTheWaiter() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).commandTimeout(Duration.ofMillis(400))
                .openTelemetry(ThrowingTelemetry.create("locksmith.lock.release.failures",
                        () -> new AssertionError("a bug in an observer")))
                .build()) {
            DistributedLock lock = locks.getLock("error-in-hand-over");
            lock.lock();
            CompletableFuture<Boolean> waiter = waitInAnotherThread(lock, new AtomicReference<>());
            awaitParkedInLine(locks, "error-in-hand-over");
            loadScripts("hand-over", "acquire");

            RedisFaults.pauseWrites(redis.node(), Duration.ofMillis(1_000));
            assertThatThrownBy(lock::unlock).isInstanceOf(AssertionError.class);

            assertThat(waiter.get(10, TimeUnit.SECONDS)).as("the waiter was settled and got the lock").isTrue();
            assertThat(redis.lockStateLeftBehind(400)).isEmpty();
        }
    }

    @Test
    void aMultiLockWhoseReleaseFailsFreesEveryPartWithinOneLease() throws Exception {
        try (DefaultLockManager locks = (DefaultLockManager) Locksmith.builder().redisUri(redis.uri()).leaseTime(LEASE)
                .build();
             LockManager others = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock multi = locks.getMultiLock(locks.getLock("part-a"), locks.getLock("part-b"));
            multi.lock();

            try (AutoCloseable ignored = RedisFaults.busy(redis.node())) {
                assertThatThrownBy(multi::unlock).isInstanceOf(LockException.class).hasMessageContaining("BUSY");
                assertThat(locks.statistics().holds()).isZero();
            }

            DistributedLock both = others.getMultiLock(others.getLock("part-a"), others.getLock("part-b"));
            assertThat(both.tryLock(LEASE.toMillis() + 2_000, TimeUnit.MILLISECONDS)).isTrue();
            both.unlock();
        }
    }

    private static void loadScripts(String... operations) {
        for (String operation : operations) {
            redis.node().command("SCRIPT", "LOAD", LockScript.script(operation).body());
        }
    }

    private static CompletableFuture<Boolean> waitInAnotherThread(DistributedLock lock, AtomicReference<Hold> taken) {
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                boolean acquired = lock.tryLock(20, TimeUnit.SECONDS);
                if (acquired) {
                    taken.set(((RedisLock) lock).currentHold());
                    lock.unlock();
                }
                result.complete(acquired);
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "handed-unanswered waiter");
        thread.start();
        return result;
    }

    /**
     * Waits until the only waiter of {@code lockName} in {@code locks} sleeps in the local line,
     * where a release here claims it, as the manager's lock protocol counts it.
     */
    static void awaitParkedInLine(LockManager locks, String lockName) {
        Await.until("the waiter for " + lockName + " sleeps in the line", Duration.ofSeconds(10),
                () -> ((DefaultLockManager) locks).sleepingWaiters(lockName).inLine() == 1);
    }
}
