package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.JavaProcess;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.RespClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fair lock serves waiters across processes in the order they asked, and a waiter that
 * gives up or dies does not hold up the queue.
 */
class FairLockTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final String QUEUE = "locksmith:{fifo}:queue";

    @Test
    void eightWaitersFromTwoJvmsAcquireInTheOrderTheyAsked() {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build();
             JavaProcess even = JavaProcess.start(LockWorker.class, "fair", redis.uri(), "fifo", "30000", "0", "2", "4", "6");
             JavaProcess odd = JavaProcess.start(LockWorker.class, "fair", redis.uri(), "fifo", "30000", "1", "3", "5", "7")) {
            DistributedLock holder = locks.getFairLock("fifo");
            holder.lock();
            even.awaitLine("READY", Duration.ofSeconds(30));
            odd.awaitLine("READY", Duration.ofSeconds(30));

            for (int i = 0; i < 8; i++) {
                redis.node().command("RPUSH", "go:" + i, "1");
                int queued = i + 1;
                Await.until("waiter " + i + " is queued", Duration.ofSeconds(20), () -> queueLength() == queued);
            }
            holder.unlock();
            even.awaitLine("DONE", Duration.ofSeconds(30));
            odd.awaitLine("DONE", Duration.ofSeconds(30));

            assertThat(list("order")).containsExactly("0", "1", "2", "3", "4", "5", "6", "7");
            assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
        }
    }

    @Test
    void aWaiterThatGivesUpLeavesTheQueueAtOnce() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build();
             LockManager others = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock holder = locks.getFairLock("fifo");
            holder.lock();

            boolean acquired = others.getFairLock("fifo").tryLock(200, TimeUnit.MILLISECONDS);

            assertThat(acquired).isFalse();
            assertThat(queueLength()).isZero();
            holder.unlock();
        }
    }

    /**
     * The head's process died before the release: Redis counts no listener on its channel, so the
     * release drops the dead head from the queue and wakes the next at once, instead of leaving
     * the queue to wait until the dead head's place lapses (a lease, 10 s here).
     */
    @Test
    void aHeadWhoseProcessDiedIsSkippedByTheRelease() throws Exception {
        long leaseMillis = 10_000;
        long waited = nextWaiterAfterTheDoomedHead(leaseMillis, doomed -> {
            String channel = addressOfHead();
            doomed.kill();
            Await.until("Redis saw the killed process's connection close", Duration.ofSeconds(10),
                    () -> redis.listeners(channel) == 0);
        });
        assertThat(waited).as("woken by the same release").isLessThan(1_000);
    }

    /**
     * The head's process is frozen ({@code SIGSTOP}) when the release wakes it: its connection
     * stays open, Redis counts it as listening, and the head never comes. Its place lapses within
     * one lease, and the next waiter takes the lock then.
     */
    @Test
    void aFrozenHeadHoldsUpTheQueueForOneLeaseAtMost() throws Exception {
        long leaseMillis = 1_000;
        long waited = nextWaiterAfterTheDoomedHead(leaseMillis, doomed -> doomed.signal("STOP"));
        assertThat(waited).as("the frozen head keeps its place until it lapses, one lease").isLessThan(leaseMillis + 500);
    }

    /**
     * A holder here, a waiter of another JVM at the head of the queue and a second waiter behind
     * it; {@code doom} does something to the head's JVM, then the holder releases.
     *
     * @return ms from the release until the second waiter held the lock
     */
    private static long nextWaiterAfterTheDoomedHead(long leaseMillis, Doom doom) throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).leaseTime(Duration.ofMillis(leaseMillis)).build();
             JavaProcess doomed = JavaProcess.start(LockWorker.class, "fair", redis.uri(), "fifo",
                     Long.toString(leaseMillis), "0")) {
            try {
                DistributedLock holder = locks.getFairLock("fifo");
                holder.lock();
                doomed.awaitLine("READY", Duration.ofSeconds(30));
                redis.node().command("RPUSH", "go:0", "1");
                Await.until("the doomed waiter is queued", Duration.ofSeconds(20), () -> queueLength() == 1);
                CompletableFuture<Long> nextAcquiredAfter = CompletableFuture.supplyAsync(() -> {
                    try (LockManager mine = Locksmith.builder().redisUri(redis.uri())
                            .leaseTime(Duration.ofMillis(leaseMillis)).build()) {
                        DistributedLock lock = mine.getFairLock("fifo");
                        lock.lock();
                        long at = System.nanoTime();
                        lock.unlock();
                        return at;
                    }
                });
                Await.until("the second waiter is queued", Duration.ofSeconds(20), () -> queueLength() == 2);

                doom.accept(doomed);
                long released = System.nanoTime();
                holder.unlock();

                return TimeUnit.NANOSECONDS.toMillis(nextAcquiredAfter.get(20, TimeUnit.SECONDS) - released);
            } finally {
                if (doomed.isAlive()) {
                    doomed.signal("CONT");
                }
            }
        }
    }

    private interface Doom {
        void accept(JavaProcess doomed) throws Exception;
    }

    /**
     * @return the channel on which only the head's process hears its turn
     */
    private static String addressOfHead() {
        String head = redis.node().command("LINDEX", QUEUE, "0");
        return "locksmith:{fifo}:released:" + head.substring(0, head.indexOf(':') + 1);
    }



    private static long queueLength() {
        return Long.parseLong(redis.node().command("LLEN", QUEUE));
    }

    @SuppressWarnings("unchecked")
    private static List<String> list(String key) {
        return (List<String>) RespClient.call(redis.node().port(), "LRANGE", key, "0", "-1");
    }
}
