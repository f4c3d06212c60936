package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LogCapture;
import dev.locksmith.testing.RedisFaults;
import dev.locksmith.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A SUBSCRIBE that failed is asked for again, by every kind of lock: Redis refusing it (a user
 * whose channel permissions were taken away, then given back) or answering BUSY for a while
 * never leaves a waiter without its release messages for as long as the name stays contended,
 * and never fails a fair waiter that other kinds would let retry.
 */
class SubscriptionRetryTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final String USER = "subscriber";
    private static final String PASSWORD = "subscriber-pw";

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
        redis.node().command("ACL", "DELUSER", USER);
    }

    @Test
    void aWaitRefusedItsChannelsSubscribesOnTheNextWaitOnceRedisGrantsThem() throws Exception {
        String uri = documentedUser();
        BiFunction<LockManager, String, DistributedLock> writeLock = (m, name) -> m.getReadWriteLock(name).writeLock();
        List<Kind> kinds = List.of(new Kind("reentrant", LockManager::getLock, LockManager::getLock),
                new Kind("fair", LockManager::getFairLock, LockManager::getFairLock),
                new Kind("read", (m, name) -> m.getReadWriteLock(name).readLock(), writeLock),
                new Kind("write", writeLock, writeLock));
        try (LockManager holders = Locksmith.builder().redisUri(redis.uri()).build();
             LockManager locks = Locksmith.builder().redisUri(uri).build()) {
            for (Kind kind : kinds) {
                DistributedLock held = kind.holder().apply(holders, kind.lockName());
                held.lock();
                redis.node().command("ACL", "SETUSER", USER, "resetchannels");

                DistributedLock refused = kind.lock(locks);
                assertThatThrownBy(() -> refused.tryLock(10, TimeUnit.SECONDS))
                        .as("the %s lock's subscription is refused", kind.name())
                        .isInstanceOf(LockException.class).hasMessageContaining("NOPERM");

                redis.node().command("ACL", "SETUSER", USER, "&locksmith:*");
                Future<Boolean> waiter = threads.submit(() -> tryAndUnlock(kind.lock(locks)));
                String channel = kind.channel();
                Await.until("the " + kind.name() + " waiter listens on " + channel, Duration.ofSeconds(10),
                        () -> redis.listeners(channel) == 1 || waiter.isDone());
                assertThat(waiter).as("the %s waiter still waits", kind.name()).isNotDone();
                held.unlock();

                assertThat(waiter.get(10, TimeUnit.SECONDS)).as("the %s waiter got the lock", kind.name()).isTrue();
            }
            assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
        }
    }

    /**
     * Redis answers BUSY to the fair waiter's SUBSCRIBE: the waiter keeps waiting (asking Redis
     * every 100 ms) instead of failing, and subscribes once Redis answers again.
     */
    @Test
    void aFairWaiterWhoseSubscriptionRedisAnswersBusyRetriesIt() throws Exception {
        try (LogCapture log = LogCapture.start();
             LockManager holders = Locksmith.builder().redisUri(redis.uri()).build();
             LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock held = holders.getFairLock("busy-fair");
            held.lock();

            Future<Boolean> waiter = listenAfterBusySubscription(log, locks.getFairLock("busy-fair"),
                    "locksmith:{busy-fair}:released");
            held.unlock();

            assertThat(waiter.get(10, TimeUnit.SECONDS)).isTrue();
            assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
        }
    }

    /**
     * The first waiter of the line, while another thread here holds the lock, subscribes all the
     * same (a force-unlock elsewhere sends no local release); Redis answers BUSY. Once Redis
     * answers again, the waiter subscribes, although the name stayed contended all along.
     */
    @Test
    void aWaiterWhoseSubscriptionFailedListensOnceRedisAnswersAgainWhileTheNameStaysContended() throws Exception {
        try (LogCapture log = LogCapture.start();
             LockManager locks = Locksmith.builder().redisUri(redis.uri()).build();
             LockManager others = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock held = locks.getLock("busy-line");
            held.lock();

            Future<Boolean> waiter = listenAfterBusySubscription(log, locks.getLock("busy-line"),
                    "locksmith:{busy-line}:released");
            assertThat(others.getLock("busy-line").forceUnlock()).isTrue();
            assertThat(waiter.get(10, TimeUnit.SECONDS)).as("woken by the force-unlock's message").isTrue();
            assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
        }
    }

    /**
     * Redis drops the pub/sub connection of a user whose channel permission is taken away while it
     * listens; Lettuce connects again and its resubscription is refused, as is Locksmith's renewal
     * after the reconnect. Once the permission is back, the next wait subscribes again instead of
     * trusting the confirmation from before the reconnect.
     */
    @Test
    void aSubscriptionRefusedAfterAReconnectIsAskedForAgainByTheNextWait() throws Exception {
        String uri = documentedUser();
        String channel = "locksmith:{reconnect}:released";
        try (LogCapture log = LogCapture.start();
             LockManager holders = Locksmith.builder().redisUri(redis.uri()).build();
             LockManager locks = Locksmith.builder().redisUri(uri).build()) {
            DistributedLock held = holders.getLock("reconnect");
            held.lock();
            Future<Boolean> first = threads.submit(() -> tryAndUnlock(locks.getLock("reconnect")));
            Await.until("the first waiter listens", Duration.ofSeconds(10), () -> redis.listeners(channel) == 1);

            redis.node().command("ACL", "SETUSER", USER, "resetchannels");
            Await.until("the renewal after the reconnect is refused", Duration.ofSeconds(10),
                    () -> log.messages().stream().anyMatch(text -> text.contains("Renewing")
                            && text.contains("NOPERM")));
            first.cancel(true);
            assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);
            redis.node().command("ACL", "SETUSER", USER, "&locksmith:*");
            Future<Boolean> next = threads.submit(() -> tryAndUnlock(locks.getLock("reconnect")));

            Await.until("the next waiter listens", Duration.ofSeconds(10),
                    () -> redis.listeners(channel) == 1 || next.isDone());
            assertThat(next).isNotDone();
            held.unlock();
            assertThat(next.get(10, TimeUnit.SECONDS)).as("woken by the release").isTrue();
            assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
        }
    }

    /**
     * @return the URI of a Redis user with exactly the documented permissions
     */
    private static String documentedUser() throws java.io.IOException {
        List<String> rules = new ArrayList<>(List.of("ACL", "SETUSER", USER, "reset"));
        rules.addAll(RedisPermissionsTest.documentedRules().stream()
                .map(rule -> rule.startsWith(">") ? ">" + PASSWORD : rule).toList());
        redis.node().command(rules.toArray(String[]::new));
        return "redis://" + USER + ":" + PASSWORD + "@127.0.0.1:" + redis.node().port();
    }

    /**
     * Starts a waiter for {@code lock} while Redis answers BUSY, and ends the BUSY once Redis
     * refused the waiter's subscription.
     *
     * @return the waiter, once it listens on {@code channel}, still waiting
     */
    private Future<Boolean> listenAfterBusySubscription(LogCapture log, DistributedLock lock, String channel)
            throws Exception {
        Future<Boolean> waiter;
        try (AutoCloseable busy = RedisFaults.busy(redis.node())) {
            waiter = threads.submit(() -> tryAndUnlock(lock));
            Await.until("Redis answered the waiter's subscription with BUSY", Duration.ofSeconds(10),
                    () -> waiter.isDone() || log.messages().stream()
                            .anyMatch(text -> text.contains("Subscribing to releases") && text.contains("BUSY")));
            assertThat(waiter).as("the waiter still waits while Redis answers BUSY").isNotDone();
        }
        Await.until("the waiter listens on " + channel, Duration.ofSeconds(10),
                () -> redis.listeners(channel) == 1 || waiter.isDone());
        assertThat(waiter).as("the waiter still waits once it listens").isNotDone();
        return waiter;
    }

    private static boolean tryAndUnlock(DistributedLock lock) throws InterruptedException {
        boolean acquired = lock.tryLock(30, TimeUnit.SECONDS);
        if (acquired) {
            lock.unlock();
        }
        return acquired;
    }

    /** A kind of lock, how to get it, and what keeps a waiter of it waiting. */
    private record Kind(String name, BiFunction<LockManager, String, DistributedLock> waiter,
                        BiFunction<LockManager, String, DistributedLock> holder) {
        String lockName() {
            return "refused-" + name;
        }

        String channel() {
            return "locksmith:{" + lockName() + "}" + (name.equals("read") || name.equals("write") ? ":rw" : "")
                    + ":released";
        }

        DistributedLock lock(LockManager manager) {
            return waiter.apply(manager, lockName());
        }
    }
}
