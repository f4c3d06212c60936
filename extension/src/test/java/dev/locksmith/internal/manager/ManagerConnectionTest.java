package dev.locksmith.internal.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.LockException;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LocalRedisServer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The way to a connected manager: a call made while the first attempt is under way waits for it
 * and is served (a request right after startup on a slow machine, or before the startup's wait
 * ended), at most one attempt's bound; once an attempt has failed, calls fail at once.
 */
class ManagerConnectionTest {
    private static final Duration SOON = Duration.ofSeconds(10);

    private LocalRedisServer redis;
    private final CountDownLatch attemptMayFinish = new CountDownLatch(1);

    @BeforeEach
    void startRedis() {
        redis = LocalRedisServer.start();
    }

    @AfterEach
    void stopRedis() {
        attemptMayFinish.countDown();
        redis.close();
    }

    @Test
    void aCallMadeDuringTheFirstAttemptWaitsForItAndIsServed() throws Exception {
        try (ManagerConnection connection = ManagerConnection.start(heldBack(this::connect), "test Redis",
                Duration.ofSeconds(30), Duration.ZERO)) {
            CompletableFuture<DefaultLockManager> call = CompletableFuture.supplyAsync(connection::manager);
            Await.until("the call waits for the first attempt", SOON, () -> connection.awaitingFirstAttempt() == 1);

            attemptMayFinish.countDown();

            DefaultLockManager manager = call.get(SOON.toSeconds(), TimeUnit.SECONDS);
            assertThat(manager).isSameAs(connection.managerIfConnected());
            assertThat(manager.getLock("early").tryLock(1, TimeUnit.SECONDS)).isTrue();
            manager.getLock("early").unlock();
        }
    }

    @Test
    void aCallWaitsForTheFirstAttemptAtMostOneAttemptsBound() {
        Duration bound = Duration.ofMillis(300);
        try (ManagerConnection connection = ManagerConnection.start(heldBack(this::connect), "test Redis", bound,
                Duration.ZERO)) {
            long start = System.nanoTime();

            assertThatThrownBy(connection::manager).isInstanceOf(LockException.class)
                    .hasMessageContaining("has not connected to Redis at test Redis yet")
                    .hasMessageContaining("its first attempt is still under way");

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(bound);
            attemptMayFinish.countDown();
        }
    }

    @Test
    void onceAnAttemptFailedCallsFailAtOnceSayingWhy() {
        Supplier<DefaultLockManager> refused = () -> {
            throw new LockException("Cannot connect to Redis: refused on purpose");
        };
        try (ManagerConnection connection = ManagerConnection.start(refused, "test Redis", Duration.ofSeconds(30),
                SOON)) {
            long start = System.nanoTime();

            assertThatThrownBy(connection::manager).isInstanceOf(LockException.class)
                    .hasMessageContaining("1 attempt(s) failed, the last: Cannot connect to Redis: refused on purpose")
                    .hasMessageContaining("keeps trying in the background");

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(ManagerConnection.FIRST_PAUSE);
        }
    }

    private DefaultLockManager connect() {
        return (DefaultLockManager) Locksmith.builder().redisUri(redis.uri()).keyPrefix("connection-test:").build();
    }

    private Supplier<DefaultLockManager> heldBack(Supplier<DefaultLockManager> connect) {
        return () -> {
            try {
                attemptMayFinish.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LockException("interrupted while held back", e);
            }
            return connect.get();
        };
    }
}
