package dev.locksmith.it.faults;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One JVM of {@link FaultRunIT}: {@code worker lockUri resourceUri names threads leaseMs stopFile managers}.
 * Its threads share {@code managers} lock managers, each of which stands for one application
 * server, so that the run has many processes contending for each name.
 * Each thread, until the stop file exists, takes the lock of a random name, writes to the
 * {@link FencedResource} with its fencing token right away and again after a random pause (the
 * second write is the one a lost lease makes stale), and unlocks. After each hold it prints
 * {@code HOLD name token acquiredMs releasedMs firstWrite secondWrite unlock}, where the writes are
 * {@code accepted}, {@code stale} or {@code failed} and unlock is {@code ok}, {@code lost} or
 * {@code failed}: only {@code ok} claims that the lock was held from acquiredMs to releasedMs.
 * Prints {@code DONE} when every thread stopped.
 */
public final class FaultRunWorker {
    private FaultRunWorker() {
    }

    /**
     * @param args the worker's name, lock Redis URI, resource Redis URI, comma list of names,
     *             threads, lease ms, stop file, lock managers
     * @throws Exception if it cannot start
     */
    public static void main(String[] args) throws Exception {
        String worker = args[0];
        String[] names = args[3].split(",");
        int threads = Integer.parseInt(args[4]);
        Duration lease = Duration.ofMillis(Long.parseLong(args[5]));
        Path stop = Path.of(args[6]);
        RedisClient resourceClient = RedisClient.create(args[2]);
        List<LockManager> managers = new ArrayList<>();
        try (StatefulRedisConnection<String, String> resource = resourceClient.connect()) {
            for (int m = 0; m < Integer.parseInt(args[7]); m++) {
                managers.add(Locksmith.builder().redisUri(args[1]).keyPrefix("faultrun:").leaseTime(lease)
                        .commandTimeout(Duration.ofMillis(500)).build());
            }
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String writer = worker + "/" + t;
                LockManager locks = managers.get(t % managers.size());
                Thread thread = new Thread(() -> work(locks, resource.sync(), names, writer, stop), writer);
                thread.start();
                running.add(thread);
            }
            System.out.println("READY");
            for (Thread thread : running) {
                thread.join();
            }
        } finally {
            managers.forEach(LockManager::close);
            resourceClient.shutdown();
        }
        System.out.println("DONE");
    }

    private static void work(LockManager locks, RedisCommands<String, String> resource, String[] names, String writer,
            Path stop) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!Files.exists(stop)) {
            String name = names[random.nextInt(names.length)];
            DistributedLock lock = locks.getLock(name);
            try {
                if (!lock.tryLock(2, TimeUnit.SECONDS)) {
                    continue;
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                continue; // Redis unreachable for now: a fault; try again
            }
            long acquired = System.currentTimeMillis();
            long token;
            try {
                token = lock.fencingToken();
            } catch (RuntimeException e) {
                token = -1; // lost already; still unlock below
            }
            String first = token < 0 ? "failed" : write(resource, name, token, writer);
            pause(random.nextInt(0, 200));
            String second = token < 0 ? "failed" : write(resource, name, token, writer);
            long released = System.currentTimeMillis();
            String unlock;
            try {
                lock.unlock();
                unlock = "ok";
            } catch (LockLostException e) {
                unlock = "lost";
            } catch (RuntimeException e) {
                unlock = "failed";
            }
            System.out.println("HOLD " + name + " " + token + " " + acquired + " " + released + " " + first + " "
                    + second + " " + unlock);
        }
    }

    private static String write(RedisCommands<String, String> resource, String name, long token, String writer) {
        try {
            return FencedResource.write(resource, name, token, writer) ? "accepted" : "stale";
        } catch (RuntimeException e) {
            return "failed";
        }
    }

    private static void pause(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
