package dev.locksmith.it.faults;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The other JVM of {@link RedLockContentionIT}:
 * {@code counterUri masterUris lock threads iterations}. Each thread, holding the RedLock over
 * the masters, reads the counter {@code counter} on its own server, writes it back plus one (an
 * update is lost if two hold at once) and appends its fencing token to the list {@code tokens}.
 * Prints {@code DONE}, or {@code FAILED} with the first failure.
 */
public final class RedLockCountingWorker {
    private RedLockCountingWorker() {
    }

    /**
     * @param args counter URI, comma list of master URIs, lock name, threads, iterations per thread
     * @throws Exception if setting up fails
     */
    public static void main(String[] args) throws Exception {
        String counterUri = args[0];
        String lockName = args[2];
        int threads = Integer.parseInt(args[3]);
        int iterations = Integer.parseInt(args[4]);
        RedisClient client = RedisClient.create(counterUri);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (LockManager locks = Locksmith.builder().mode(RedisMode.REDLOCK).redisUri(args[1]).build();
             StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> counter = connection.sync();
            List<Future<Void>> work = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                work.add(pool.submit(() -> {
                    DistributedLock lock = locks.getLock(lockName);
                    for (int i = 0; i < iterations; i++) {
                        incrementUnder(lock, counter);
                    }
                    return null;
                }));
            }
            for (Future<Void> done : work) {
                done.get();
            }
            System.out.println("DONE");
        } catch (Exception e) {
            e.printStackTrace(System.out);
            System.out.println("FAILED " + e);
        } finally {
            pool.shutdownNow();
            client.shutdown();
        }
    }

    private static void incrementUnder(DistributedLock lock, RedisCommands<String, String> counter)
            throws InterruptedException {
        if (!lock.tryLock(60, TimeUnit.SECONDS)) {
            throw new AssertionError("RedLock not acquired within 60 s");
        }
        try {
            String current = counter.get("counter");
            counter.set("counter", Long.toString(current == null ? 1 : Long.parseLong(current) + 1));
            counter.rpush("tokens", Long.toString(lock.fencingToken()));
        } finally {
            lock.unlock();
        }
    }
}
