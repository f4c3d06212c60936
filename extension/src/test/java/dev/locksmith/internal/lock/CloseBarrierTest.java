package dev.locksmith.internal.lock;

import dev.locksmith.internal.lock.local.SleepingWaiters;
import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisFaults;
import dev.locksmith.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code close()} is a barrier: after it returns, no acquisition of the manager returns true and
 * nothing it granted is left in Redis, even when a grant or a hand-over was on its way while it
 * closed. Each race is made on cue by holding Redis's answer back ({@code CLIENT PAUSE}) while
 * another thread closes.
 */
class CloseBarrierTest {
    private static final long COMMAND_TIMEOUT_MILLIS = 5_000;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aGrantThatArrivesWhileTheManagerClosesIsReleasedAndTheCallerHearsItClosed() throws Exception {
        LockManager locks = Locksmith.builder().redisUri(redis.uri()).build();
        try {
            DistributedLock lock = locks.getLock("granted-during-close");
            loadScripts("acquire");
            RedisFaults.pauseWrites(redis.node(), Duration.ofMillis(1_000));
            CompletableFuture<Boolean> acquiring = inThread("acquirer", () -> lock.tryLock(10, TimeUnit.SECONDS));
            RedisFaults.awaitHeldByPause(redis.node(), 1); // the acquirer's first attempt, unanswered

            CompletableFuture<Void> closing = CompletableFuture.runAsync(locks::close);
            closing.get(30, TimeUnit.SECONDS);

            assertThat(acquiring).isDone();
            assertThat(outcome(acquiring)).as("the acquisition's outcome").isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
            assertThat(redis.lockStateLeftBehind(COMMAND_TIMEOUT_MILLIS)).as("right after close() returned").isEmpty();
        } finally {
            locks.close();
        }
    }

    @Test
    void closeLeavesNoTaskOnASchedulerThatOutlivesTheManager() throws Exception {
        ScheduledThreadPoolExecutor containers = new ScheduledThreadPoolExecutor(1);
        try {
            LockManager locks = Locksmith.builder().redisUri(redis.uri()).watchdogScheduler(containers).build();
            LockManager other = Locksmith.builder().redisUri(redis.uri()).build();
            DistributedLock held = other.getLock("lingering");
            held.lock();
            CompletableFuture<Boolean> waited = inThread("waiter", () -> {
                DistributedLock lock = locks.getLock("lingering");
                boolean acquired = lock.tryLock(10, TimeUnit.SECONDS);
                lock.unlock(); // its subscription now lingers, with its end scheduled
                return acquired;
            });
            Await.until("the waiter is in the lock's ring", Duration.ofSeconds(10),
                    () -> String.valueOf(redis.node().command("GET", "locksmith:{lingering}")).startsWith("W"));
            held.unlock();
            assertThat(waited.get(10, TimeUnit.SECONDS)).isTrue();
            locks.getLock("renewed").lock(); // the watchdog ticks for it
            assertThat(containers.getQueue()).as("tasks of the open manager").isNotEmpty();

            locks.close();
            other.close();

            assertThat(containers.getQueue()).as("tasks left on the scheduler after close()").isEmpty();
            assertThat(containers.isShutdown()).as("the scheduler is the container's: it stays up").isFalse();
            assertThat(redis.lockStateLeftBehind(COMMAND_TIMEOUT_MILLIS)).isEmpty();
        } finally {
            containers.shutdownNow();
        }
    }

    @Test
    void aHandOverUnderWayWhileTheManagerClosesLeavesNoLockBehind() throws Exception {
        LockManager locks = Locksmith.builder().redisUri(redis.uri()).build();
        try {
            DistributedLock lock = locks.getLock("handed-during-close");
            CompletableFuture<Void> held = new CompletableFuture<>();
            CompletableFuture<Void> release = new CompletableFuture<>();
            CompletableFuture<Integer> holder = inThread("holder", () -> {
                lock.lock();
                held.complete(null);
                release.join();
                lock.unlock();
                return 0;
            });
            held.get(10, TimeUnit.SECONDS);
            CompletableFuture<Boolean> waiter = inThread("waiter", () -> lock.tryLock(10, TimeUnit.SECONDS));
            ReleaseFailureTest.awaitParkedInLine(locks, "handed-during-close");
            loadScripts("hand-over");

            RedisFaults.pauseWrites(redis.node(), Duration.ofMillis(1_000));
            release.complete(null);
            awaitHandOverUnderWay(locks, "handed-during-close");
            CompletableFuture.runAsync(locks::close).get(30, TimeUnit.SECONDS);

            assertThat(holder).isDone();
            assertThat(waiter).isDone();
            assertThat(outcome(waiter)).as("the waiter, handed the lock while its manager closed")
                    .isInstanceOf(IllegalStateException.class);
            assertThat(redis.lockStateLeftBehind(COMMAND_TIMEOUT_MILLIS)).as("right after close() returned").isEmpty();
        } finally {
            locks.close();
        }
    }

    @Test
    void closeWakesEveryWaiterOfTheLineAndTheQueue() throws Exception {
        try (LockManager holderSide = Locksmith.builder().redisUri(redis.uri()).build()) {
            LockManager locks = Locksmith.builder().redisUri(redis.uri()).build();
            holderSide.getLock("busy").lock();
            holderSide.getFairLock("busy-fair").lock();
            List<CompletableFuture<Boolean>> waiters = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                waiters.add(inThread("line-" + i, () -> locks.getLock("busy").tryLock(60, TimeUnit.SECONDS)));
                waiters.add(inThread("queue-" + i, () -> locks.getFairLock("busy-fair").tryLock(60, TimeUnit.SECONDS)));
            }
            Await.until("every waiter waits", Duration.ofSeconds(10),
                    () -> ((DefaultLockManager) locks).sleepingWaiters("busy").total() == 3
                            && ((DefaultLockManager) locks).sleepingWaiters("busy-fair").total() == 3);

            long closing = System.nanoTime();
            locks.close();

            for (CompletableFuture<Boolean> waiter : waiters) {
                assertThat(outcome(waiter)).isInstanceOf(IllegalStateException.class);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - closing)).as("every waiter ended").isLessThan(Duration.ofSeconds(5));
            holderSide.getLock("busy").unlock();
            holderSide.getFairLock("busy-fair").unlock();
        }
        assertThat(redis.lockStateLeftBehind(COMMAND_TIMEOUT_MILLIS)).isEmpty();
    }

    private static void loadScripts(String... operations) {
        for (String operation : operations) {
            redis.node().command("SCRIPT", "LOAD", LockScript.script(operation).body());
        }
    }

    private static Throwable outcome(CompletableFuture<?> call) throws Exception {
        try {
            Object result = call.get(10, TimeUnit.SECONDS);
            return new AssertionError("returned " + result + " instead of failing");
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    /**
     * Waits until a release in {@code locks} claimed the only waiter of {@code lockName} for a
     * hand-over: the waiter sleeps out of the line, waiting for that hand-over's answer, which the
     * releasing thread sends right after the claim, whatever a close does meanwhile.
     */
    private static void awaitHandOverUnderWay(LockManager locks, String lockName) {
        Await.until("a release hands " + lockName + " over", Duration.ofSeconds(10), () -> {
            SleepingWaiters sleeping = ((DefaultLockManager) locks).sleepingWaiters(lockName);
            return sleeping.inLine() == 0 && sleeping.outsideLine() == 1;
        });
    }

    private interface Call<T> {
        T call() throws Exception;
    }

    private static <T> CompletableFuture<T> inThread(String name, Call<T> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                result.complete(call.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return result;
    }
}
