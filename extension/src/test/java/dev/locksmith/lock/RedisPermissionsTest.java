package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedReadWriteLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.testing.CountedMetrics;
import dev.locksmith.testing.LocalRedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Locksmith as a Redis ACL user with only the permissions docs/configuration.md lists: every
 * kind of lock works, a user with less is refused when the manager is built, naming what is
 * missing, and a refusal in the middle of a script never makes a fencing token go backwards.
 */
class RedisPermissionsTest {
    private static final String PASSWORD = "locksmith-pw";
    private static LocalRedisServer server;

    @BeforeAll
    static void startRedis() {
        server = LocalRedisServer.start();
    }

    @AfterAll
    static void stopRedis() {
        server.close();
    }

    /**
     * @return the rules of docs/configuration.md's ACL SETUSER line, as arguments after the user name
     */
    static List<String> documentedRules() throws IOException {
        String doc = Files.readString(Path.of("../docs/configuration.md"), StandardCharsets.UTF_8);
        String line = doc.lines().dropWhile(text -> !text.contains("acl-rules"))
                .filter(text -> text.startsWith("ACL SETUSER locksmith ")).findFirst()
                .orElseThrow(() -> new AssertionError("docs/configuration.md lists no ACL SETUSER locksmith line"));
        List<String> words = new ArrayList<>(Arrays.asList(line.split(" ")));
        return words.subList(3, words.size()).stream().map(word -> word.equals(">change-me") ? ">" + PASSWORD : word)
                .toList();
    }

    private static String userWith(String user, List<String> rules) {
        List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", user, "reset"));
        command.addAll(rules);
        server.command(command.toArray(String[]::new));
        return "redis://" + user + ":" + PASSWORD + "@127.0.0.1:" + server.port();
    }

    @Test
    void theDocumentedRulesAreEnoughForEveryKindOfLock() throws Exception {
        String uri = userWith("locksmith", documentedRules());
        ExecutorService threads = Executors.newCachedThreadPool();
        try (CountedMetrics metrics = new CountedMetrics();
             LockManager locks = Locksmith.builder().redisUri(uri).leaseTime(Duration.ofMillis(300))
                     .openTelemetry(metrics.openTelemetry()).build();
             LockManager others = Locksmith.builder().redisUri(uri).build()) {
            DistributedLock reentrant = locks.getLock("documented");
            reentrant.lock();
            reentrant.lock();
            long token = reentrant.fencingToken();
            Future<Boolean> waiter = threads.submit(() -> {
                DistributedLock lock = others.getLock("documented");
                boolean acquired = lock.tryLock(10, TimeUnit.SECONDS);
                lock.unlock();
                return acquired;
            });
            assertThat(reentrant.remainingLease()).isPositive();
            long outlived = System.nanoTime() + Duration.ofMillis(900).toNanos();
            while (System.nanoTime() < outlived) {
                assertThat(others.getLock("documented").isLocked()).as("the watchdog keeps it").isTrue();
            }
            reentrant.unlock();
            reentrant.unlock();
            assertThat(waiter.get(10, TimeUnit.SECONDS)).as("woken by the release message").isTrue();
            assertThat(token).isGreaterThan(1_000_000_000_000_000L);

            DistributedLock fair = locks.getFairLock("documented-fair");
            fair.lock();
            Future<Boolean> fairWaiter = threads.submit(() -> {
                DistributedLock lock = others.getFairLock("documented-fair");
                boolean acquired = lock.tryLock(10, TimeUnit.SECONDS);
                lock.unlock();
                return acquired;
            });
            fair.unlock();
            assertThat(fairWaiter.get(10, TimeUnit.SECONDS)).isTrue();

            DistributedReadWriteLock readWrite = locks.getReadWriteLock("documented-rw");
            readWrite.writeLock().lock();
            readWrite.readLock().lock();
            readWrite.writeLock().unlock();
            assertThat(others.getReadWriteLock("documented-rw").readLock().tryLock()).isTrue();
            others.getReadWriteLock("documented-rw").readLock().unlock();
            readWrite.readLock().unlock();

            DistributedLock multi = locks.getMultiLock(locks.getLock("m1"), locks.getFairLock("m2"),
                    readWrite.writeLock());
            assertThat(multi.tryLock(1, TimeUnit.SECONDS)).isTrue();
            multi.unlock();
            locks.getLock("forced").lock();
            assertThat(others.getLock("forced").forceUnlock()).isTrue();

            // Threads of both managers on one name: hand-overs within each, and turns between them.
            List<Future<?>> busy = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                DistributedLock lock = (t % 2 == 0 ? locks : others).getLock("documented-turns");
                busy.add(threads.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        assertThat(lock.tryLock(10, TimeUnit.SECONDS)).isTrue();
                        lock.unlock();
                    }
                    return null;
                }));
            }
            for (Future<?> done : busy) {
                done.get(30, TimeUnit.SECONDS);
            }
            assertThat(metrics.total("locksmith.lock.handovers")).as("hand-overs under the documented user").isPositive();
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void theCommonCategoryShorthandIsRefusedAtBuildNamingTheClock() {
        String uri = userWith("categories", List.of("on", ">" + PASSWORD, "~*", "&*", "+@read", "+@write",
                "+@scripting", "+@pubsub", "+@connection", "-@dangerous"));

        assertThatThrownBy(() -> Locksmith.builder().redisUri(uri).build())
                .isInstanceOf(LockException.class)
                .hasMessageContaining("time")
                .hasMessageContaining("docs/configuration.md")
                .hasMessageNotContaining(PASSWORD);
    }

    @Test
    void aUserWithoutTheReadWriteCommandsIsRefusedAtBuildNamingThem() throws Exception {
        List<String> rules = new ArrayList<>(documentedRules());
        rules.remove("+hgetall");
        String uri = userWith("no-hgetall", rules);

        assertThatThrownBy(() -> Locksmith.builder().redisUri(uri).build())
                .isInstanceOf(LockException.class)
                .hasMessageContaining("hgetall locksmith:{locksmith-access-check}:rw");
    }

    @Test
    void aRefusedClockInTheMiddleOfAnAcquisitionNeverMakesATokenGoBackwards() throws Exception {
        long before;
        try (LockManager locks = Locksmith.builder().redisUri(server.uri()).build()) {
            DistributedLock lock = locks.getLock("clockless");
            lock.lock();
            before = lock.fencingToken();
            lock.unlock();
        }
        server.command("DEL", "locksmith:{clockless}:fence"); // as after its lifetime, or a restart
        List<String> rules = new ArrayList<>(documentedRules());
        rules.remove("+time");
        String uri = userWith("clockless", rules);
        RedisClient client = RedisClient.create(RedisURI.create(uri));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            String script = LockScript.script("acquire").body();
            for (int attempt = 0; attempt < 3; attempt++) {
                // The acquisition the library would send, resent as a retrying client would.
                assertThatThrownBy(() -> connection.sync().eval(script, ScriptOutputType.MULTI,
                        new String[] {"locksmith:{clockless}", "locksmith:{clockless}:fence"},
                        "acquire", "owner", "30000", "0", "main", "86400000"))
                        .hasMessageContaining("can't run this command");
            }
        } finally {
            client.shutdown();
        }

        assertThat(server.command("EXISTS", "locksmith:{clockless}")).as("no lock was granted").isEqualTo("0");
        try (LockManager locks = Locksmith.builder().redisUri(server.uri()).build()) {
            DistributedLock lock = locks.getLock("clockless");
            lock.lock();
            assertThat(lock.fencingToken()).as("the counter left at 3 by the failed attempts was seeded again")
                    .isGreaterThan(before);
            lock.unlock();
        }
        assertThat(Long.parseLong(server.command("PTTL", "locksmith:{clockless}:fence")))
                .as("the counter has a lifetime again").isPositive();
    }
}
