package dev.locksmith.demo;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.RedisNode;
import dev.locksmith.testing.RedisServers;
import dev.locksmith.testing.RespClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A two-minute tour of the library: two lock managers (as two servers would have) share a
 * counter in Redis that is only safe under the lock. Uses Redis at {@code $LOCKSMITH_REDIS_URI}
 * (default {@code redis://127.0.0.1:6379}); when none answers there it starts a throwaway
 * server and stops it at the end.
 *
 * <p>Run: {@code ./mvnw -q -pl extension test-compile exec:java}
 */
public final class LockDemo {
    private static final String COUNTER = "locksmith-demo:counter";

    private LockDemo() {
    }

    public static void main(String[] args) throws Exception {
        String uri = System.getenv().getOrDefault("LOCKSMITH_REDIS_URI", "redis://127.0.0.1:6379");
        RedisNode started = null;
        if (!answers(uri)) {
            started = RedisServers.standalone();
            System.out.println("No Redis answers at " + uri + "; started a throwaway one at " + started.uri()
                    + " (stopped when the demo ends)");
            uri = started.uri();
        } else {
            System.out.println("Using Redis at " + uri);
        }
        try {
            run(uri);
        } finally {
            if (started != null) {
                started.close();
            }
        }
    }

    private static void run(String uri) throws Exception {
        RedisClient client = RedisClient.create(uri);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try (LockManager serverA = Locksmith.builder().redisUri(uri).leaseTime(Duration.ofSeconds(10)).build();
             LockManager serverB = Locksmith.builder().redisUri(uri).leaseTime(Duration.ofSeconds(10)).build();
             StatefulRedisConnection<String, String> redis = client.connect()) {
            redis.sync().del(COUNTER);

            System.out.println("\n1. Reentrant: the holder may lock again, and must unlock as often.");
            DistributedLock lock = serverA.getLock("demo:report");
            lock.lock();
            lock.lock();
            System.out.printf("   hold count %d, fencing token %d, lease left %s%n",
                    lock.getHoldCount(), lock.fencingToken(), lock.remainingLease());
            System.out.println("2. Another manager cannot take it: tryLock(200 ms) = "
                    + serverB.getLock("demo:report").tryLock(200, TimeUnit.MILLISECONDS));
            lock.unlock();
            lock.unlock();
            System.out.println("   after two unlocks it is free: isLocked = " + lock.isLocked());

            System.out.println("3. 8 threads across two managers add 1 to a Redis counter 50 times each,"
                    + " with a read-then-write that loses updates unless the lock works...");
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                LockManager manager = t % 2 == 0 ? serverA : serverB;
                work.add(threads.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        manager.callWithLock("demo:counter", Duration.ofSeconds(10), () -> {
                            String value = redis.sync().get(COUNTER);
                            return redis.sync().set(COUNTER, Integer.toString(value == null ? 1 : Integer.parseInt(value) + 1));
                        });
                    }
                    return null;
                }));
            }
            for (Future<?> future : work) {
                future.get(2, TimeUnit.MINUTES);
            }
            System.out.println("   counter = " + redis.sync().get(COUNTER) + " (expected 400: no lost update)");
            redis.sync().del(COUNTER);
        } finally {
            threads.shutdownNow();
            client.shutdown();
        }
    }

    private static boolean answers(String uri) {
        try {
            URI parsed = URI.create(uri);
            if (!"redis".equals(parsed.getScheme()) || !parsed.getHost().matches("127\\.0\\.0\\.1|localhost")) {
                return true;
            }
            return "PONG".equals(RespClient.call(parsed.getPort() < 0 ? 6379 : parsed.getPort(), "PING"));
        } catch (RuntimeException e) {
            return false;
        }
    }
}
