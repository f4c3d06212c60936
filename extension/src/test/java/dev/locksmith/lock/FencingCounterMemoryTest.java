package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.RespClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What Redis keeps after many distinct names were locked once: one fencing counter per name for
 * its configured lifetime, and nothing else once the release latches expired. Prints the
 * figures docs/configuration.md quotes.
 */
class FencingCounterMemoryTest {
    private static final int NAMES = 20_000;

    @Test
    void eachNameLeavesOnlyItsFencingCounterForItsLifetime() throws Exception {
        try (LocalRedisServer server = LocalRedisServer.start("--active-expire-effort", "10");
             LockManager locks = Locksmith.builder().redisUri(server.uri()).commandTimeout(Duration.ofSeconds(1))
                     .fencingCounterLifetime(Duration.ofHours(1)).build()) {
            long emptyBytes = usedMemory(server);
            ExecutorService threads = Executors.newFixedThreadPool(8);
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                work.add(threads.submit(() -> {
                    for (int i = thread; i < NAMES; i += 8) {
                        DistributedLock lock = locks.getLock(String.format(Locale.ROOT, "order:%012d", i));
                        lock.lock();
                        lock.unlock();
                    }
                    return null;
                }));
            }
            for (Future<?> done : work) {
                done.get(2, TimeUnit.MINUTES);
            }
            threads.shutdown();
            long keysRightAfter = Long.parseLong(server.command("DBSIZE"));
            long bytesRightAfter = usedMemory(server) - emptyBytes;

            // Redis deletes expired keys in the background, a few at a time: wait until the latches
            // (and nothing else) are gone, but for the last stragglers the server keeps under 1 %.
            Await.until("the release latches expired", Duration.ofSeconds(20),
                    () -> ((List<?>) RespClient.call(server.port(), "KEYS", "*:unlock:*")).isEmpty()
                            && Long.parseLong(server.command("DBSIZE")) <= NAMES * 101L / 100);
            assertThat(((List<?>) RespClient.call(server.port(), "KEYS", "locksmith:{*")).size())
                    .as("one counter per name, nothing else").isEqualTo(NAMES);
            assertThat(((List<?>) RespClient.call(server.port(), "KEYS", "*")).size())
                    .as("besides them only the manager's description of itself").isEqualTo(NAMES + 1);
            long bytesLater = usedMemory(server) - emptyBytes;
            long counterMillis = Long.parseLong(server.command("PTTL", "locksmith:{order:000000000007}:fence"));

            System.out.printf(Locale.ROOT, "MEMORY %d names: right after %d keys %d bytes; after the latches"
                    + " expired %s keys %d bytes, %d bytes per name%n", NAMES, keysRightAfter, bytesRightAfter,
                    server.command("DBSIZE"), bytesLater, bytesLater / NAMES);
            assertThat(keysRightAfter).as("counters plus release latches, and the manager's description")
                    .isBetween((long) NAMES, 2L * NAMES + 1);
            assertThat(bytesLater / NAMES).as("bytes per name").isLessThan(250);
            assertThat(counterMillis).as("the configured counter lifetime")
                    .isBetween(Duration.ofMinutes(59).toMillis(), Duration.ofHours(1).toMillis());
        }
    }

    private static long usedMemory(LocalRedisServer server) {
        return Long.parseLong(server.info("memory").get("used_memory"));
    }
}
