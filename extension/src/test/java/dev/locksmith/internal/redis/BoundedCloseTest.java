package dev.locksmith.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.testing.LogCapture;
import dev.locksmith.testing.RedisServerExtension;
import io.lettuce.core.RedisURI;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Closing waits for Lettuce at most {@link ShutdownBound#TIMEOUT} for the connections and as
 * long again for the threads: a Lettuce thread stuck in a task cannot hang an undeploy, and
 * what did not stop is named in the log.
 */
class BoundedCloseTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    /** Both waits, and one second for everything else on a loaded 2-core machine. */
    private static final Duration CLOSE_BOUND = ShutdownBound.TIMEOUT.multipliedBy(2).plusSeconds(1);

    @Test
    void closeReturnsWithinItsBoundAndNamesTheThreadThatIsStuck() throws Exception {
        RedisResources resources = RedisResources.create(null);
        RedisEndpoint endpoint = RedisEndpoint.connect(resources, RedisMode.STANDALONE,
                List.of(RedisURI.create(redis.uri())), Duration.ofSeconds(5));
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> ioThread = new AtomicReference<>();
        // A listener runs on the pub/sub connection's I/O thread; this one keeps it until released,
        // so neither that connection nor Lettuce's threads can stop.
        endpoint.pubSub().addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                ioThread.set(Thread.currentThread());
                stuck.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        endpoint.pubSub().async().subscribe("stuck").get(5, TimeUnit.SECONDS);
        endpoint.commands().publish("stuck", "block").get(5, TimeUnit.SECONDS);
        assertThat(stuck.await(5, TimeUnit.SECONDS)).as("the I/O thread runs the blocking listener").isTrue();

        try (LogCapture logs = LogCapture.start()) {
            long started = System.nanoTime();
            endpoint.close();
            resources.close();
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(took).isLessThan(CLOSE_BOUND);
            assertThat(logs.messages()).anySatisfy(message -> assertThat(message)
                    .contains("WARNING", "Closing the Redis connections did not finish within 2000 ms",
                            "the connections to STANDALONE " + redis.uri()));
            assertThat(logs.messages()).anySatisfy(message -> assertThat(message)
                    .contains("WARNING", "Stopping Lettuce's I/O and event threads did not finish within 2000 ms",
                            ioThread.get().getName() + " (WAITING in ", getClass().getSimpleName() + "$1.message"));
        } finally {
            release.countDown();
        }
        // Released, the stuck thread finishes its task and stops as asked.
        ioThread.get().join(ShutdownBound.TIMEOUT.toMillis());
        assertThat(ioThread.get().isAlive()).isFalse();
    }

    @Test
    void aManagerClosesQuietlyAndStopsEveryThreadItWasGiven() throws Exception {
        List<Thread> threads = new CopyOnWriteArrayList<>();
        ThreadFactory containerThreads = task -> {
            Thread thread = new Thread(task, "container-thread-" + threads.size());
            thread.setDaemon(true);
            threads.add(thread);
            return thread;
        };

        try (LogCapture logs = LogCapture.start()) {
            LockManager locks = Locksmith.builder().redisUri(redis.uri()).threadFactory(containerThreads).build();
            DistributedLock lock = locks.getLock("job");
            lock.lock();
            lock.unlock();
            long started = System.nanoTime();
            locks.close();
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(took).isLessThan(ShutdownBound.TIMEOUT);
            assertThat(logs.messages()).noneMatch(message -> message.contains("WARNING"));
        }
        assertThat(threads).isNotEmpty();
        for (Thread thread : threads) {
            // Lettuce reports a thread stopped just before it returns from its last frame.
            thread.join(ShutdownBound.TIMEOUT.toMillis());
            assertThat(thread.isAlive()).as(thread.getName()).isFalse();
        }
    }
}
