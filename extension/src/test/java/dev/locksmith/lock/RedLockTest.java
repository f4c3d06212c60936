package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedReadWriteLock;
import dev.locksmith.LockException;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.IndependentMasters;
import dev.locksmith.testing.LogCapture;
import dev.locksmith.testing.LocalRedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RedLock over three independent masters: a majority is enough, less is not, and a master that
 * comes back empty cannot let a second client in while the first keeps a majority.
 */
class RedLockTest {
    private final List<LocalRedisServer> masters = new ArrayList<>();
    private final List<LockManager> managers = new ArrayList<>();

    @BeforeEach
    void startMasters() {
        for (int i = 0; i < 3; i++) {
            masters.add(LocalRedisServer.start());
        }
    }

    @AfterEach
    void stopEverything() {
        managers.forEach(LockManager::close);
        masters.forEach(LocalRedisServer::close);
    }

    private LockManager manager(Duration lease) {
        LockManager manager = Locksmith.builder().mode(RedisMode.REDLOCK)
                .redisUri(masters.stream().map(LocalRedisServer::uri).collect(Collectors.joining(",")))
                .leaseTime(lease).commandTimeout(Duration.ofMillis(500)).build();
        managers.add(manager);
        return manager;
    }

    @Test
    void oneMasterDownStillLocksAndExcludes() throws Exception {
        DistributedLock mine = manager(Duration.ofSeconds(10)).getLock("job");
        DistributedLock theirs = manager(Duration.ofSeconds(10)).getLock("job");
        masters.get(0).kill();

        assertThat(mine.tryLock(2, TimeUnit.SECONDS)).isTrue();
        assertThat(theirs.tryLock(300, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(mine.isHeldByCurrentThread()).isTrue();
        mine.unlock();
        assertThat(theirs.tryLock(2, TimeUnit.SECONDS)).isTrue();
        theirs.unlock();
    }

    @Test
    void aManagerBuiltWhileOneMasterIsDownLocksWithTheMajorityAndTakesItBackWhenItAnswers() throws Exception {
        masters.get(0).kill();
        try (LogCapture logs = LogCapture.start()) {
            DistributedLock mine = manager(Duration.ofSeconds(10)).getLock("late");
            DistributedLock theirs = manager(Duration.ofSeconds(10)).getLock("late");

            assertThat(mine.tryLock(2, TimeUnit.SECONDS)).isTrue();
            assertThat(theirs.tryLock(300, TimeUnit.MILLISECONDS)).isFalse();
            mine.unlock();
            assertThat(logs.messages()).anyMatch(line -> line.contains("REDLOCK master 1 of 3") && line.contains("does not answer"));

            masters.get(0).restart();
            Await.until("both managers took the master back", Duration.ofSeconds(15), () -> logs.messages().stream()
                    .filter(line -> line.contains("REDLOCK master 1 of 3") && line.contains("answers again")).count() == 2);
            masters.get(1).kill();

            assertThat(mine.tryLock(2, TimeUnit.SECONDS)).as("masters 1 and 3 are a majority").isTrue();
            assertThat(theirs.tryLock(300, TimeUnit.MILLISECONDS)).isFalse();
            mine.unlock();
        }
    }

    @Test
    void aManagerCannotStartWithoutAMajorityAndSaysWhichMastersAreMissing() {
        masters.get(0).kill();
        masters.get(2).kill();

        assertThatThrownBy(() -> manager(Duration.ofSeconds(10)))
                .isInstanceOf(LockException.class)
                .hasMessageContaining("Only 1 of 3 RedLock masters answer; 2 are needed")
                .hasMessageContaining("REDLOCK master 1 of 3").hasMessageContaining("REDLOCK master 3 of 3")
                .hasMessageNotContaining("STANDALONE");
    }

    @Test
    void twoMastersDownMeansNoLock() throws Exception {
        DistributedLock lock = manager(Duration.ofSeconds(10)).getLock("job");
        masters.get(0).kill();
        masters.get(1).kill();

        assertThat(lock.tryLock(500, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(masters.get(2).command("EXISTS", "locksmith:{job}")).as("the partial grant was undone").isEqualTo("0");
    }

    @Test
    void aMasterRestartedEmptyCannotLetASecondHolderInWhileTheFirstKeepsAMajority() throws Exception {
        DistributedLock first = manager(Duration.ofSeconds(10)).getLock("ledger");
        DistributedLock second = manager(Duration.ofSeconds(10)).getLock("ledger");
        first.lock();
        long firstToken = first.fencingToken();

        masters.get(0).kill();
        masters.get(0).restart();

        assertThat(second.tryLock(500, TimeUnit.MILLISECONDS)).isFalse();
        first.unlock();
        assertThat(second.tryLock(2, TimeUnit.SECONDS)).isTrue();
        assertThat(second.fencingToken()).as("the empty master learned nothing, the others did").isGreaterThan(firstToken);
        second.unlock();
    }

    @Test
    void aHoldRenewedOnFewerThanAMajorityIsLost() throws Exception {
        DefaultLockManager locks = (DefaultLockManager) manager(Duration.ofMillis(600));
        DistributedLock lock = locks.getLock("fragile");
        lock.lock();

        masters.get(1).kill();
        masters.get(2).kill();
        Await.until("the watchdog noticed it keeps only one master", Duration.ofSeconds(10),
                () -> locks.statistics().renewed() == 0);

        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
    }

    @Test
    void everyLockKindWorksOverTheMasters() throws Exception {
        LockManager locks = manager(Duration.ofSeconds(10));
        LockManager others = manager(Duration.ofSeconds(10));
        DistributedLock fair = locks.getFairLock("fair");
        DistributedReadWriteLock readWrite = locks.getReadWriteLock("rw");
        DistributedLock multi = locks.getMultiLock(locks.getLock("a"), locks.getLock("b"));

        fair.lock();
        assertThat(others.getFairLock("fair").tryLock(200, TimeUnit.MILLISECONDS)).isFalse();
        fair.unlock();
        readWrite.readLock().lock();
        assertThat(others.getReadWriteLock("rw").readLock().tryLock()).isTrue();
        others.getReadWriteLock("rw").readLock().unlock();
        assertThat(others.getReadWriteLock("rw").writeLock().tryLock(200, TimeUnit.MILLISECONDS)).isFalse();
        readWrite.readLock().unlock();
        multi.lock();
        assertThat(others.getLock("b").tryLock()).isFalse();
        multi.unlock();

        for (LocalRedisServer master : masters) {
            assertThat(master.command("KEYS", "locksmith:{*}")).as("no lock left on " + master).isEqualTo("[]");
        }
    }

    @Test
    void fiveMastersTolerateTwoDownButNotThree() throws Exception {
        try (IndependentMasters five = IndependentMasters.start(5);
             LockManager locks = Locksmith.builder().mode(RedisMode.REDLOCK).redisUri(five.uris())
                     .commandTimeout(Duration.ofMillis(500)).build();
             LockManager others = Locksmith.builder().mode(RedisMode.REDLOCK).redisUri(five.uris())
                     .commandTimeout(Duration.ofMillis(500)).build()) {
            five.kill(0);
            five.kill(1);

            DistributedLock lock = locks.getLock("quorum");
            assertThat(lock.tryLock(2, TimeUnit.SECONDS)).as("3 of 5 is a majority").isTrue();
            assertThat(others.getLock("quorum").tryLock(300, TimeUnit.MILLISECONDS)).isFalse();
            lock.unlock();

            five.kill(2);
            assertThat(lock.tryLock(500, TimeUnit.MILLISECONDS)).as("2 of 5 is not").isFalse();
        }
    }
}
