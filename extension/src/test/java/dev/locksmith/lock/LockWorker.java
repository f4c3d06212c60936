package dev.locksmith.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The other JVM of multi-process tests. Modes:
 * <ul>
 *   <li>{@code count uri lock threads iterations counterKey tokensKey}: each thread, under the
 *       lock, reads the counter, writes it back plus one (a lost update if two hold at once), and
 *       appends its fencing token; prints {@code DONE}.</li>
 *   <li>{@code hold uri lock leaseMs}: takes the lock with the watchdog, prints {@code HELD token}
 *       and waits to be killed.</li>
 *   <li>{@code read-hold uri lock leaseMs}: the same with the read side of a read/write lock.</li>
 *   <li>{@code fair uri lock leaseMs index...}: one thread per index; thread i waits for an element
 *       on the Redis list {@code go:i} (BLPOP, no polling), then takes the fair lock, appends i to
 *       the list {@code order} and unlocks.</li>
 *   <li>{@code readers uri lock threads}: each thread takes the read lock, increments the Redis
 *       counter {@code inside}, and holds the lock until it pops an element from the list
 *       {@code leave} (BLPOP, no polling); prints {@code DONE} when every thread left.</li>
 *   <li>{@code multi uri iterations first second}: takes the multi-lock of the two names in that
 *       order {@code iterations} times, incrementing the Redis counter {@code multi-counter}
 *       with a read-then-write; prints {@code DONE}.</li>
 *   <li>{@code share uri lock threads total label}: prints {@code READY}, waits for an element
 *       on the Redis list {@code go:label}, then each thread takes the lock over and over; under
 *       it, increments the counter {@code shared} with a read-then-write and appends the label to
 *       the list {@code order}, until that list holds {@code total} entries; prints {@code DONE}.</li>
 * </ul>
 */
public final class LockWorker {
    private LockWorker() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "count" -> count(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]), args[5], args[6]);
            case "hold" -> hold(args[1], args[2], Long.parseLong(args[3]), false);
            case "read-hold" -> hold(args[1], args[2], Long.parseLong(args[3]), true);
            case "fair" -> fair(args[1], args[2], Long.parseLong(args[3]), Arrays.copyOfRange(args, 4, args.length));
            case "multi" -> multi(args[1], Integer.parseInt(args[2]), args[3], args[4]);
            case "readers" -> readers(args[1], args[2], Integer.parseInt(args[3]));
            case "share" -> share(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]), args[5]);
            case "wait" -> waitFor(args[1], args[2], args[3], Long.parseLong(args[4]), Long.parseLong(args[5]),
                    Long.parseLong(args[6]), args[7]);
            case "hammer" -> hammer(args[1], args[2], args[3], Integer.parseInt(args[4]), Integer.parseInt(args[5]),
                    args[6]);
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
            DistributedLock lock = locks.getLock(name);
            runThreads(threads, () -> {
                start.await();
                for (int i = 0; i < iterations; i++) {
                    incrementUnder(lock, redis, counterKey, tokensKey, () -> Long.toString(lock.fencingToken()));
                }
            }, () -> {
                System.out.println("READY");
                start.countDown();
            });
        } finally {
            client.shutdown();
        }
    }

    private static void hold(String uri, String name, long leaseMillis, boolean read) throws Exception {
        LockManager locks = Locksmith.builder().redisUri(uri).leaseTime(Duration.ofMillis(leaseMillis)).build();
        DistributedLock lock = read ? locks.getReadWriteLock(name).readLock() : locks.getLock(name);
        lock.lock();
        System.out.println("HELD " + lock.fencingToken());
        new CountDownLatch(1).await();
    }

    private static void fair(String uri, String name, long leaseMillis, String[] indexes) throws Exception {
        RedisClient client = RedisClient.create(uri);
        LockManager locks = Locksmith.builder().redisUri(uri).leaseTime(Duration.ofMillis(leaseMillis)).build();
        List<Thread> threads = new ArrayList<>();
        for (String index : indexes) {
            Thread thread = new Thread(() -> {
                try (StatefulRedisConnection<String, String> connection = client.connect()) {
                    RedisCommands<String, String> redis = connection.sync();
                    redis.blpop(0, "go:" + index);
                    DistributedLock lock = locks.getFairLock(name);
                    lock.lock();
                    try {
                        redis.rpush("order", index);
                    } finally {
                        lock.unlock();
                    }
                } catch (RuntimeException e) {
                    e.printStackTrace(System.out);
                }
            });
            thread.start();
            threads.add(thread);
        }
        System.out.println("READY");
        for (Thread thread : threads) {
            thread.join();
        }
        System.out.println("DONE");
        locks.close();
        client.shutdown();
    }

    private static void multi(String uri, int iterations, String first, String second) throws Exception {
        RedisClient client = RedisClient.create(uri);
        try (LockManager locks = Locksmith.builder().redisUri(uri).build();
             StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            System.out.println("READY");
            for (int i = 0; i < iterations; i++) {
                DistributedLock both = locks.getMultiLock(locks.getLock(first), locks.getLock(second));
                if (!both.tryLock(60, TimeUnit.SECONDS)) {
                    throw new AssertionError("multi-lock not acquired within 60 s");
                }
                try {
                    String value = redis.get("multi-counter");
                    redis.set("multi-counter", Long.toString(value == null ? 1 : Long.parseLong(value) + 1));
                } finally {
                    both.unlock();
                }
            }
            System.out.println("DONE");
        } finally {
            client.shutdown();
        }
    }

    private static void readers(String uri, String name, int threads) throws Exception {
        RedisClient client = RedisClient.create(uri);
        try (LockManager locks = Locksmith.builder().redisUri(uri).build()) {
            List<Thread> readers = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread reader = new Thread(() -> {
                    try (StatefulRedisConnection<String, String> connection = client.connect()) {
                        DistributedLock lock = locks.getReadWriteLock(name).readLock();
                        lock.lock();
                        try {
                            connection.sync().incr("inside");
                            if (connection.sync().blpop(60, "leave") == null) {
                                throw new AssertionError("not told to leave within 60 s");
                            }
                        } finally {
                            lock.unlock();
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                });
                readers.add(reader);
                reader.start();
            }
            for (Thread reader : readers) {
                reader.join();
            }
            if (!failures.isEmpty()) {
                failures.get(0).printStackTrace();
                System.exit(1);
            }
            System.out.println("DONE");
        } finally {
            client.shutdown();
        }
    }

    private static void share(String uri, String name, int threads, int total, String label) throws Exception {
        RedisClient client = RedisClient.create(uri);
        try (LockManager locks = Locksmith.builder().redisUri(uri).build();
             StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            DistributedLock lock = locks.getLock(name);
            System.out.println("READY");
            if (redis.blpop(60, "go:" + label) == null) {
                throw new AssertionError("not told to go within 60 s");
            }
            runThreads(threads, () -> {
                long recorded = 0;
                while (recorded < total) {
                    recorded = incrementUnder(lock, redis, "shared", "order", () -> label);
                }
            }, () -> { });
        } finally {
            client.shutdown();
        }
    }

    /**
     * @param kind {@code reentrant} or {@code write}
     * @return that kind of lock of that name
     */
    static DistributedLock lockOfKind(LockManager locks, String kind, String name) {
        return switch (kind) {
            case "reentrant" -> locks.getLock(name);
            case "write" -> locks.getReadWriteLock(name).writeLock();
            default -> throw new IllegalArgumentException("unknown kind " + kind);
        };
    }

    private static void waitFor(String uri, String name, String kind, long leaseMillis, long commandTimeoutMillis,
                                long waitMillis, String label) throws Exception {
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            LockManager locks = Locksmith.builder().redisUri(uri).leaseTime(Duration.ofMillis(leaseMillis))
                    .commandTimeout(Duration.ofMillis(commandTimeoutMillis)).build();
            try {
                DistributedLock lock = lockOfKind(locks, kind, name);
                System.out.println("WAITING");
                if (lock.tryLock(waitMillis, TimeUnit.MILLISECONDS)) {
                    System.out.println("ACQUIRED " + lock.fencingToken());
                    try {
                        if (connection.sync().blpop(120, "go:" + label) == null) {
                            throw new AssertionError("not told to release within 120 s");
                        }
                    } finally {
                        lock.unlock();
                    }
                    System.out.println("RELEASED");
                } else {
                    System.out.println("GAVE-UP");
                }
            } finally {
                locks.close();
            }
            System.out.println("DONE");
        } finally {
            client.shutdown();
        }
    }

    private static void hammer(String uri, String name, String kind, int managers, int total, String label)
            throws Exception {
        RedisClient client = RedisClient.create(uri);
        List<LockManager> all = new ArrayList<>();
        try (StatefulRedisConnection<String, String> control = client.connect()) {
            List<DistributedLock> locks = new ArrayList<>();
            List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
            for (int m = 0; m < managers; m++) {
                LockManager manager = Locksmith.builder().redisUri(uri).build();
                all.add(manager);
                locks.add(lockOfKind(manager, kind, name));
                connections.add(client.connect());
            }
            System.out.println("READY");
            if (control.sync().blpop(60, "go:" + label) == null) {
                throw new AssertionError("not told to go within 60 s");
            }
            java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
            runThreads(managers, () -> {
                int m = next.getAndIncrement();
                DistributedLock lock = locks.get(m);
                RedisCommands<String, String> redis = connections.get(m).sync();
                long recorded = 0;
                while (recorded < total) {
                    if (!lock.tryLock(60, TimeUnit.SECONDS)) {
                        throw new AssertionError("lock not acquired within 60 s");
                    }
                    try {
                        if (redis.incr("inside") > 1) {
                            redis.incr("overlaps");
                        }
                        String current = redis.get("shared");
                        redis.set("shared", Long.toString(current == null ? 1 : Long.parseLong(current) + 1));
                        recorded = redis.rpush("order", label + m);
                        redis.decr("inside");
                    } finally {
                        lock.unlock();
                    }
                }
            }, () -> { });
            connections.forEach(StatefulRedisConnection::close);
        } finally {
            all.forEach(LockManager::close);
            client.shutdown();
        }
    }

    /**
     * Under the lock, reads the counter and writes it back plus one (a lost update if two hold at
     * once), and appends an entry to a list.
     *
     * @return the list's length afterwards
     */
    private static long incrementUnder(DistributedLock lock, RedisCommands<String, String> redis, String counterKey,
                                       String listKey, Callable<String> entry) throws Exception {
        if (!lock.tryLock(60, TimeUnit.SECONDS)) {
            throw new AssertionError("lock not acquired within 60 s");
        }
        try {
            String current = redis.get(counterKey);
            redis.set(counterKey, Long.toString(current == null ? 1 : Long.parseLong(current) + 1));
            return redis.rpush(listKey, entry.call());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code work} on that many threads, then {@code started}, and once all are done prints
     * {@code DONE}, or the first failure and {@code FAILED n}.
     */
    private static void runThreads(int threads, Work work, Runnable started) throws InterruptedException {
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                try {
                    work.run();
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            worker.start();
            workers.add(worker);
        }
        started.run();
        for (Thread worker : workers) {
            worker.join();
        }
        if (!failures.isEmpty()) {
            failures.get(0).printStackTrace(System.out);
            System.out.println("FAILED " + failures.size());
        } else {
            System.out.println("DONE");
        }
    }

    private interface Work {
        void run() throws Exception;
    }
}
