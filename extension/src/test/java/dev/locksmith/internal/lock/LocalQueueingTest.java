package dev.locksmith.internal.lock;

import dev.locksmith.internal.manager.DefaultLockManager;
import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.RespClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Threads of one process waiting for the same lock share one subscription, and only one of them
 * asks Redis at a time: the others wait in the JVM instead of hammering the server.
 */
class LocalQueueingTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void eightLocalWaitersShareOneSubscriptionAndOneContender() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try (LockManager holderSide = Locksmith.builder().redisUri(redis.uri()).build();
             DefaultLockManager waiterSide = (DefaultLockManager) Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock held = holderSide.getLock("queue");
            held.lock();
            AtomicInteger acquired = new AtomicInteger();
            List<Future<?>> waiters = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                waiters.add(threads.submit(() -> {
                    DistributedLock lock = waiterSide.getLock("queue");
                    lock.lock();
                    acquired.incrementAndGet();
                    lock.unlock();
                    return null;
                }));
            }
            Await.until("all waiters queue behind one subscription", Duration.ofSeconds(10),
                    () -> waiterSide.statistics().contendedNames() == 1 && subscribers() == 1);
            long scriptCallsBefore = scriptCalls();

            held.unlock();
            for (Future<?> waiter : waiters) {
                waiter.get(30, TimeUnit.SECONDS);
            }
            long scriptCallsForEight = scriptCalls() - scriptCallsBefore;

            assertThat(acquired).hasValue(8);
            // Each waiter: one acquisition, one release, and at most one attempt that found the lock
            // taken by its predecessor. Polling waiters would make hundreds of calls here.
            assertThat(scriptCallsForEight).isLessThanOrEqualTo(1 + 8 * 3);
            // The subscription outlives the last acquisition by a moment, and UNSUBSCRIBE settles asynchronously.
            Await.until("the subscription ends", Duration.ofSeconds(10), () -> subscribers() == 0);
        } finally {
            threads.shutdownNow();
        }
    }

    private static long subscribers() {
        List<?> reply = (List<?>) RespClient.call(redis.node().port(), "PUBSUB", "NUMSUB", "locksmith:{queue}:released");
        return Long.parseLong(reply.get(1).toString());
    }

    private static long scriptCalls() {
        String stats = redis.node().command("INFO", "commandstats");
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:")) {
                return Long.parseLong(line.replaceAll("^[a-z_|]*:calls=(\\d+),.*", "$1"));
            }
        }
        return 0;
    }

}
