package dev.locksmith.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The other JVM of multi-process tests. Modes:
 * <ul>
 *   <li>{@code count uri lock threads iterations counterKey tokensKey}: each thread, under the lock,
 *       reads the counter, writes it back plus one (a lost update if two hold at once), and appends
 *       its fencing token; prints {@code DONE}.</li>
 *   <li>{@code hold uri lock leaseMs}: takes the lock with the watchdog, prints {@code HELD token}
 *       and waits to be killed.</li>
 * </ul>
 */
public final class LockWorker {
    private LockWorker() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "count" -> count(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]), args[5], args[6]);
            case "hold" -> hold(args[1], args[2], Long.parseLong(args[3]));
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    private static void count(String uri, String name, int threads, int iterations, String counterKey,
                              String tokensKey) throws Exception {
        RedisClient client = RedisClient.create(uri);
        try (LockManager locks = Locksmith.builder().redisUri(uri).build();
             StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread worker = new Thread(() -> {
                    try {
                        start.await();
                        DistributedLock lock = locks.getLock(name);
                        for (int i = 0; i < iterations; i++) {
                            if (!lock.tryLock(60, TimeUnit.SECONDS)) {
                                throw new AssertionError("lock not acquired within 60 s");
                            }
                            try {
                                String current = redis.get(counterKey);
                                redis.set(counterKey, Long.toString(current == null ? 1 : Long.parseLong(current) + 1));
                                redis.rpush(tokensKey, Long.toString(lock.fencingToken()));
                            } finally {
                                lock.unlock();
                            }
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                });
                worker.start();
                workers.add(worker);
            }
            System.out.println("READY");
            start.countDown();
            for (Thread worker : workers) {
                worker.join();
            }
            if (!failures.isEmpty()) {
                failures.get(0).printStackTrace(System.out);
                System.out.println("FAILED " + failures.size());
            } else {
                System.out.println("DONE");
            }
        } finally {
            client.shutdown();
        }
    }

    private static void hold(String uri, String name, long leaseMillis) throws Exception {
        LockManager locks = Locksmith.builder().redisUri(uri).leaseTime(Duration.ofMillis(leaseMillis)).build();
        DistributedLock lock = locks.getLock(name);
        lock.lock();
        System.out.println("HELD " + lock.fencingToken());
        new CountDownLatch(1).await();
    }
}
