package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedReadWriteLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.JavaProcess;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.RespClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Many readers or one writer; a writer may read and step down; waiting writers are not starved.
 */
class ReadWriteLockTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final List<LockManager> managers = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void close() {
        threads.shutdownNow();
        managers.forEach(LockManager::close);
    }

    private DistributedReadWriteLock lock(String name) {
        LockManager manager = Locksmith.builder().redisUri(redis.uri()).build();
        managers.add(manager);
        return manager.getReadWriteLock(name);
    }

    @Test
    void eightReadersFromTwoManagersHoldTheReadLockAtOnce() throws Exception {
        DistributedReadWriteLock first = lock("catalog");
        DistributedReadWriteLock second = lock("catalog");
        CyclicBarrier allInside = new CyclicBarrier(8);
        List<Future<?>> readers = new ArrayList<>();

        for (int i = 0; i < 8; i++) {
            DistributedLock read = (i % 2 == 0 ? first : second).readLock();
            readers.add(threads.submit(() -> {
                read.lock();
                try {
                    allInside.await(10, TimeUnit.SECONDS);
                } finally {
                    read.unlock();
                }
                return null;
            }));
        }

        for (Future<?> reader : readers) {
            reader.get(30, TimeUnit.SECONDS);
        }
        assertThat(first.readLock().isLocked()).isFalse();
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    @Test
    void aWriterExcludesReadersAndReadersExcludeAWriter() throws Exception {
        DistributedReadWriteLock mine = lock("prices");
        DistributedReadWriteLock theirs = lock("prices");

        mine.writeLock().lock();
        assertThat(theirs.readLock().tryLock()).isFalse();
        assertThat(theirs.writeLock().tryLock()).isFalse();
        assertThat(mine.writeLock().isLocked()).isTrue();
        assertThat(mine.readLock().isLocked()).isFalse();
        mine.writeLock().unlock();

        mine.readLock().lock();
        assertThat(theirs.readLock().tryLock()).as("readers share").isTrue();
        theirs.readLock().unlock();
        assertThat(theirs.writeLock().tryLock(100, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(theirs.readLock().tryLock()).as("a writer that gave up holds no reader back").isTrue();
        theirs.readLock().unlock();
        mine.readLock().unlock();
        assertThat(theirs.writeLock().tryLock()).isTrue();
        theirs.writeLock().unlock();
    }

    @Test
    void aWriterMayAlsoReadAndKeepReadingAfterReleasingTheWrite() throws Exception {
        DistributedReadWriteLock mine = lock("config");
        DistributedReadWriteLock theirs = lock("config");

        mine.writeLock().lock();
        mine.readLock().lock();
        mine.writeLock().unlock();

        assertThat(mine.readLock().isHeldByCurrentThread()).isTrue();
        assertThat(theirs.readLock().tryLock()).as("after the downgrade others may read").isTrue();
        theirs.readLock().unlock();
        assertThat(theirs.writeLock().tryLock()).isFalse();
        mine.readLock().unlock();
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    @Test
    void askingForTheWriteLockWhileOnlyReadingFailsAtOnce() throws Exception {
        DistributedReadWriteLock mine = lock("upgrade");
        mine.readLock().lock();

        long start = System.nanoTime();
        assertThatThrownBy(() -> mine.writeLock().tryLock(10, TimeUnit.SECONDS))
                .isInstanceOf(IllegalMonitorStateException.class)
                .hasMessageContaining("'upgrade'").hasMessageContaining("Release the read lock first");

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(1_000);
        mine.readLock().unlock();
    }

    @Test
    void aWaitingWriterGoesBeforeReadersWhoArriveAfterIt() throws Exception {
        DistributedReadWriteLock firstReader = lock("stream");
        DistributedReadWriteLock writer = lock("stream");
        DistributedReadWriteLock lateReader = lock("stream");
        firstReader.readLock().lock();

        Future<Boolean> written = threads.submit(() -> {
            boolean acquired = writer.writeLock().tryLock(20, TimeUnit.SECONDS);
            if (acquired) {
                writer.writeLock().unlock();
            }
            return acquired;
        });
        Await.until("the writer is waiting", Duration.ofSeconds(10),
                () -> hashHasWaitingWriter("locksmith:{stream}:rw"));

        assertThat(lateReader.readLock().tryLock(200, TimeUnit.MILLISECONDS))
                .as("a reader arriving after a waiting writer waits behind it").isFalse();
        firstReader.readLock().unlock();

        assertThat(written.get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(lateReader.readLock().tryLock(5, TimeUnit.SECONDS)).isTrue();
        lateReader.readLock().unlock();
    }

    @Test
    void aKilledReaderKeepsWritersOutForOneLeaseAtMost() throws Exception {
        long leaseMillis = 1_000;
        try (JavaProcess reader = JavaProcess.start(LockWorker.class, "read-hold", redis.uri(), "shared",
                Long.toString(leaseMillis))) {
            reader.awaitLine("HELD", Duration.ofSeconds(30));
            DistributedLock write = lock("shared").writeLock();
            assertThat(write.tryLock()).isFalse();

            reader.kill();
            long killedAt = System.nanoTime();
            boolean acquired = write.tryLock(leaseMillis * 5, TimeUnit.MILLISECONDS);

            assertThat(acquired).isTrue();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt)).isLessThan(leaseMillis + 500);
            write.unlock();
        }
    }

    @SuppressWarnings("unchecked")
    private static boolean hashHasWaitingWriter(String key) {
        List<String> fields = (List<String>) RespClient.call(redis.node().port(), "HKEYS", key);
        return fields.stream().anyMatch(field -> field.startsWith("q:"));
    }

    @Test
    void eightReadersInTwoJvmsHoldTheReadLockAtOnce() {
        try (JavaProcess first = JavaProcess.start(LockWorker.class, "readers", redis.uri(), "shelf", "4");
             JavaProcess second = JavaProcess.start(LockWorker.class, "readers", redis.uri(), "shelf", "4")) {
            Await.until("eight readers are inside together", Duration.ofSeconds(60),
                    () -> "8".equals(redis.node().command("GET", "inside")));
            for (int i = 0; i < 8; i++) {
                redis.node().command("RPUSH", "leave", "go");
            }

            assertThat(first.awaitLine("DONE", Duration.ofSeconds(30))).isEqualTo("DONE");
            assertThat(second.awaitLine("DONE", Duration.ofSeconds(30))).isEqualTo("DONE");
            assertThat(first.awaitExit(Duration.ofSeconds(30))).isZero();
            assertThat(second.awaitExit(Duration.ofSeconds(30))).isZero();
        }
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }
}
