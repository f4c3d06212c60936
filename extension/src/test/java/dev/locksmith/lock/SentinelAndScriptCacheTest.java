package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.SentinelRedis;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * The two ways of reaching Redis that the other lock tests do not cover: through Sentinel, and a
 * server that forgot the scripts (restarted, flushed, a promoted replica), which answers
 * NOSCRIPT and must be taught them again. Every lock kind works both ways, and a waiter is woken
 * by the release, not by the holder's lease running out.
 */
class SentinelAndScriptCacheTest {
    /** Far longer than a wake-up takes, so a waiter that gets the lock in time was woken by the release. */
    private static final Duration LEASE = Duration.ofSeconds(60);

    private static final List<BiFunction<LockManager, String, DistributedLock>> KINDS = List.of(LockManager::getLock,
            LockManager::getFairLock, (manager, name) -> manager.getReadWriteLock(name).writeLock(),
            (manager, name) -> manager.getMultiLock(manager.getLock(name + ":a"), manager.getLock(name + ":b")));

    @Test
    void everyKindLocksThroughSentinelAndWakesItsWaiter() throws Exception {
        try (SentinelRedis redis = SentinelRedis.start();
             LockManager holder = manager(RedisMode.SENTINEL, redis.sentinelUri());
             LockManager waiter = manager(RedisMode.SENTINEL, redis.sentinelUri())) {
            for (var kind : KINDS) {
                handsOverByRelease(holder, kind.apply(holder, "sentinel-job"), kind.apply(waiter, "sentinel-job"),
                        "sentinel-job");
            }
            DistributedLock reader = holder.getReadWriteLock("sentinel-report").readLock();
            assertThat(reader.tryLock(5, TimeUnit.SECONDS)).isTrue();
            assertThat(waiter.getReadWriteLock("sentinel-report").readLock().tryLock(5, TimeUnit.SECONDS)).isTrue();
            waiter.getReadWriteLock("sentinel-report").readLock().unlock();
            reader.unlock();
        }
    }

    @Test
    void aServerThatForgotTheScriptsIsTaughtThemAgain() throws Exception {
        try (LocalRedisServer redis = LocalRedisServer.start();
             LockManager holder = manager(RedisMode.STANDALONE, redis.uri());
             LockManager waiter = manager(RedisMode.STANDALONE, redis.uri())) {
            for (var kind : KINDS) {
                DistributedLock lock = kind.apply(holder, "flushed-job");
                assertThat(lock.tryLock(5, TimeUnit.SECONDS)).isTrue();
                lock.unlock();

                redis.command("SCRIPT", "FLUSH");

                handsOverByRelease(holder, lock, kind.apply(waiter, "flushed-job"), "flushed-job");
            }
            assertThat(redis.info("errorstats")).as("Redis answered NOSCRIPT").containsKey("errorstat_NOSCRIPT");
        }
    }

    private static LockManager manager(RedisMode mode, String uri) {
        return Locksmith.builder().mode(mode).redisUri(uri).leaseTime(LEASE).build();
    }

    /** The holder locks, the waiter waits, the holder's release lets the waiter in well before the lease ends. */
    private static void handsOverByRelease(LockManager holder, DistributedLock held, DistributedLock wanted,
                                           String name) throws Exception {
        assertThat(held.tryLock(5, TimeUnit.SECONDS)).as("%s", held).isTrue();
        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<Boolean> got = CompletableFuture.supplyAsync(() -> {
            waiting.countDown();
            try {
                boolean locked = wanted.tryLock(LEASE.toSeconds() / 2, TimeUnit.SECONDS);
                if (locked) {
                    wanted.unlock();
                }
                return locked;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        assertThat(waiting.await(5, TimeUnit.SECONDS)).isTrue();
        // A multi-lock's waiter waits for one of its parts.
        Await.until(wanted + " waits for the release", Duration.ofSeconds(10), () -> List.of(name, name + ":a",
                name + ":b").stream().anyMatch(part -> holder.describe(part).waitingProcesses() > 0));

        held.unlock();

        assertThat(got.get(LEASE.toSeconds() / 2 + 5, TimeUnit.SECONDS)).as("%s got the lock after the release", wanted)
                .isTrue();
    }
}
