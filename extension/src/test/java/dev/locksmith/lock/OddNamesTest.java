package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.RedisCluster;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every valid name works in every mode, also names with the characters Redis Cluster reads in
 * a key (braces) and the one Locksmith escapes them with ({@code %}); distinct names stay
 * distinct locks.
 */
class OddNamesTest {
    private static final List<String> NAMES = List.of("}x", "}", "{", "a}b", "{x}", "%7D", "%", "100%}", " padded ",
            "ünïcødé ✓", "\uD83D\uDD12 vault");
    private static RedisCluster cluster;
    private static LocalRedisServer standalone;

    @BeforeAll
    static void start() {
        cluster = RedisCluster.start();
        cluster.awaitHealthy(Duration.ofSeconds(30));
        standalone = LocalRedisServer.start();
    }

    @AfterAll
    static void stop() {
        cluster.close();
        standalone.close();
    }

    @Test
    void everyKindLocksOddNamesInACluster() throws Exception {
        try (LockManager locks = Locksmith.builder().mode(RedisMode.CLUSTER).redisUri(cluster.seedsUri()).build();
             LockManager rivals = Locksmith.builder().mode(RedisMode.CLUSTER).redisUri(cluster.seedsUri()).build()) {
            lockEveryName(locks, rivals);
        }
    }

    @Test
    void everyKindLocksOddNamesOnOneServer() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(standalone.uri()).build();
             LockManager rivals = Locksmith.builder().redisUri(standalone.uri()).build()) {
            lockEveryName(locks, rivals);
        }
    }

    private static void lockEveryName(LockManager locks, LockManager rivals) throws Exception {
        List<BiFunction<LockManager, String, DistributedLock>> kinds = List.of(LockManager::getLock,
                LockManager::getFairLock, (manager, name) -> manager.getReadWriteLock(name).writeLock(),
                (manager, name) -> manager.getReadWriteLock(name).readLock());
        for (var kind : kinds) {
            for (String name : NAMES) {
                DistributedLock lock = kind.apply(locks, name);
                assertThat(lock.tryLock(2, TimeUnit.SECONDS)).as("%s '%s'", lock, name).isTrue();
                long token = lock.fencingToken();
                lock.unlock();
                assertThat(lock.tryLock(2, TimeUnit.SECONDS)).isTrue();
                assertThat(lock.fencingToken()).isGreaterThan(token);
                lock.unlock();
            }
        }
        // Escaping keeps names apart: "}" and "%7D" are two locks, not one.
        DistributedLock brace = locks.getLock("}");
        brace.lock();
        assertThat(rivals.getLock("%7D").tryLock()).isTrue();
        assertThat(rivals.getLock("}").tryLock()).isFalse();
        rivals.getLock("%7D").unlock();
        brace.unlock();
    }
}
