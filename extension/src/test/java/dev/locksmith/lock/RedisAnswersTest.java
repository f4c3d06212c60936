package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LocalRedisServer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What Redis answers decides what happens next: an answer that was lost leaves no hold behind,
 * an answer that retrying cannot change ends the wait at once and quotes Redis, and a request
 * Redis could never store is refused before it is sent.
 */
class RedisAnswersTest {
    private static LocalRedisServer server;

    @BeforeAll
    static void startRedis() {
        server = LocalRedisServer.start();
    }

    @AfterAll
    static void stopRedis() {
        server.close();
    }

    @AfterEach
    void emptyRedis() {
        server.command("ACL", "DELUSER", "revoked");
        server.command("FLUSHALL");
    }

    @Test
    void aReEntryWhoseReplyWasLostDoesNotKeepTheLockAfterTheLastUnlock() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(server.uri()).commandTimeout(Duration.ofMillis(500)).build();
             LockManager others = Locksmith.builder().redisUri(server.uri()).build()) {
            DistributedLock lock = locks.getLock("re-entered");
            lock.lock();
            // Redis takes the re-entry but answers only after the client gave up on it.
            server.command("CLIENT", "PAUSE", "1500", "WRITE");

            assertThatThrownBy(lock::lock).isInstanceOf(LockException.class);
            Await.until("Redis takes writes again", Duration.ofSeconds(5),
                    () -> "OK".equals(server.command("SET", "probe", "1")));
            lock.unlock();

            assertThat(lock.getHoldCount()).isZero();
            assertThat(others.getLock("re-entered").tryLock(1, TimeUnit.SECONDS))
                    .as("the one unlock matching the one lock() that succeeded freed the lock").isTrue();
        }
    }

    @Test
    void aRefusedCommandEndsEvenAnEndlessWaitAtOnceQuotingRedis() throws Exception {
        String uri = withRevocableUser();
        try (LockManager locks = Locksmith.builder().redisUri(uri).build()) {
            server.command("ACL", "SETUSER", "revoked", "-hgetall");

            CompletableFuture<Throwable> endless = CompletableFuture.supplyAsync(() -> {
                try {
                    locks.getReadWriteLock("refused").readLock().lock();
                    return null;
                } catch (Throwable e) {
                    return e;
                }
            });
            long start = System.nanoTime();
            Throwable timed = catchThrowable(() -> locks.getReadWriteLock("refused").writeLock().tryLock(3, TimeUnit.SECONDS));
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(endless.get(5, TimeUnit.SECONDS)).isInstanceOf(LockException.class)
                    .hasMessageContaining("Redis answered").hasMessageContaining("docs/configuration.md");
            assertThat(timed).isInstanceOf(LockException.class).hasMessageContaining("'refused'");
            assertThat(took).as("not the whole wait of 3 s spent retrying").isLessThan(Duration.ofSeconds(1));
        }
    }

    @Test
    void aKeyOfAnotherTypeUnderThePrefixFailsAtOnceNamingTheType() {
        server.command("HSET", "locksmith:{typed}", "someone", "else");
        try (LockManager locks = Locksmith.builder().redisUri(server.uri()).build()) {
            assertThatThrownBy(() -> locks.getLock("typed").tryLock(3, TimeUnit.SECONDS))
                    .isInstanceOf(LockException.class).hasMessageContaining("WRONGTYPE")
                    .hasMessageContaining("locksmith.key-prefix");
        }
    }

    @Test
    void aLeaseRedisCannotKeepIsRefusedBeforeAnythingIsSent() {
        try (LockManager locks = Locksmith.builder().redisUri(server.uri()).build()) {
            DistributedLock lock = locks.getLock("forever");

            assertThatThrownBy(() -> lock.lock(Long.MAX_VALUE, TimeUnit.MILLISECONDS))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(Long.toString(Long.MAX_VALUE)).hasMessageContaining("3153600000000 ms");
            assertThatThrownBy(() -> lock.tryLock(1, Long.MAX_VALUE, TimeUnit.DAYS))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3153600000000 ms");
            assertThatThrownBy(() -> locks.callWithLock("forever", Duration.ofSeconds(Long.MAX_VALUE), () -> 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("PT2562047788015215H30M7S").hasMessageContaining(Long.toString(Long.MAX_VALUE));
            // The manager's description of itself is written at build; no lock's key may be.
            assertThat(server.command("KEYS", "locksmith:{*")).as("nothing about a lock reached Redis").isEqualTo("[]");
        }
    }

    @Test
    void hugeSettingsFailTheBuildBeforeItConnects() {
        assertThatThrownBy(() -> Locksmith.builder().redisUri("redis://127.0.0.1:1")
                .leaseTime(Duration.ofSeconds(Long.MAX_VALUE)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Lease time")
                .hasMessageContaining("3153600000000 ms");
        assertThatThrownBy(() -> Locksmith.builder().redisUri("redis://127.0.0.1:1")
                .commandTimeout(Duration.ofDays(Long.MAX_VALUE / 86_400)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Command timeout");
    }

    @Test
    void aTimeoutReadsTheSameOnEveryPath() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(server.uri()).build();
             LockManager holder = Locksmith.builder().redisUri(server.uri()).build()) {
            holder.getLock("slow").lock();

            assertThatThrownBy(() -> locks.callWithLock("slow", Duration.ofMillis(1500), () -> 1))
                    .isInstanceOf(LockTimeoutException.class)
                    .hasMessage("Lock 'slow' was not acquired within 1500ms");
            assertThatThrownBy(() -> locks.callWithLock("slow", Duration.ofSeconds(1), () -> 1))
                    .hasMessage("Lock 'slow' was not acquired within 1s");
        }
    }

    private static String withRevocableUser() {
        server.command("ACL", "SETUSER", "revoked", "on", ">pw", "~*", "&*", "+@all");
        return "redis://revoked:pw@127.0.0.1:" + server.port();
    }

    private static Throwable catchThrowable(ThrowingRunnable action) {
        try {
            action.run();
            return null;
        } catch (Throwable e) {
            return e;
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
