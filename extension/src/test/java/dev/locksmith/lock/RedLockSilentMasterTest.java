package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.testing.LiveThreads;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.LogCapture;
import dev.locksmith.testing.StallingProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A RedLock master that accepts connections and never answers (a frozen server, a partition
 * that keeps sockets open): the manager starts with the other two within about one command
 * timeout, keeps trying to bring the silent one in, and a {@code close()} that falls while one
 * of those tries is connecting leaves no thread of the manager behind.
 */
class RedLockSilentMasterTest {
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(3);

    private final List<LocalRedisServer> masters = new ArrayList<>();
    private StallingProxy silent;

    @BeforeEach
    void startMasters() {
        for (int i = 0; i < 3; i++) {
            masters.add(LocalRedisServer.start());
        }
        silent = StallingProxy.forwardingTo(masters.get(0).port());
        silent.stall();
    }

    @AfterEach
    void stopEverything() {
        silent.close();
        masters.forEach(LocalRedisServer::close);
    }

    private LockManager manager() {
        String uris = Stream.concat(Stream.of(silent.uri()), masters.stream().skip(1).map(LocalRedisServer::uri))
                .collect(Collectors.joining(","));
        return Locksmith.builder().mode(RedisMode.REDLOCK).redisUri(uris).leaseTime(Duration.ofSeconds(10))
                .commandTimeout(COMMAND_TIMEOUT).build();
    }

    private static Set<Thread> clientThreads() {
        return LiveThreads.ofTheClient();
    }

    @Test
    void aManagerStartsWithTheOtherMastersWithinAboutOneCommandTimeoutAndLocks() throws Exception {
        try (LogCapture logs = LogCapture.start()) {
            long started = System.nanoTime();
            try (LockManager manager = manager()) {
                Duration build = Duration.ofNanos(System.nanoTime() - started);

                assertThat(build).as("build() with one silent master").isLessThan(COMMAND_TIMEOUT.multipliedBy(2));
                DistributedLock lock = manager.getLock("silent-master");
                assertThat(lock.tryLock(5, TimeUnit.SECONDS)).isTrue();
                lock.unlock();
            }
            assertThat(logs.messages()).anyMatch(line -> line.contains("REDLOCK master 1 of 3")
                    && line.contains("does not answer"));
        }
    }

    @Test
    void aCloseWhileTheSilentMasterIsBeingReconnectedLeavesNoThreadBehind() throws InterruptedException {
        Set<Thread> before = clientThreads();
        try (LogCapture logs = LogCapture.start()) {
            LockManager manager = manager();
            int triedByBuild = silent.accepted();
            // A try to bring the master back opens a connection again, a second after build().
            Await.until("a reconnect to the silent master under way", Duration.ofSeconds(10),
                    () -> silent.accepted() > triedByBuild);

            long closing = System.nanoTime();
            manager.close();
            Duration close = Duration.ofNanos(System.nanoTime() - closing);

            List<Thread> started = clientThreads().stream().filter(thread -> !before.contains(thread)).toList();
            for (Thread thread : started) {
                thread.join(500); // a thread reports itself stopped just before it leaves its last frame
            }
            assertThat(started.stream().filter(Thread::isAlive).map(Thread::getName))
                    .as("threads of the manager alive after close() returned (in %s ms); logs: %s", close.toMillis(),
                            logs.messages()).isEmpty();
            assertThat(logs.messages()).as("close() finished everything in time")
                    .noneMatch(line -> line.contains("did not finish"));
            assertThat(close).as("close() waits at most for the connect under way")
                    .isLessThan(COMMAND_TIMEOUT.plusSeconds(3));
        }
    }
}
