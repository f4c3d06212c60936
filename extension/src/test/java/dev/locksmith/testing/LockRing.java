package dev.locksmith.testing;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The ring of processes waiting for a reentrant or a write lock (see {@code common.lua} and {@code exclusive.lua}), read
 * straight from Redis with the default key prefix: for tests that must wait until a process has
 * joined it before they release the lock, since only a process in the ring is offered the lock.
 */
public final class LockRing {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final RedisNode redis;
    private final String kind;
    private final String name;

    private LockRing(RedisNode redis, String kind, String name) {
        this.redis = redis;
        this.kind = kind;
        this.name = name;
    }

    /**
     * @param kind {@code reentrant} or {@code write}
     * @return the ring of that lock on that server
     */
    public static LockRing of(RedisNode redis, String kind, String name) {
        return new LockRing(redis, kind, name);
    }

    /**
     * @return the manager ids in the ring now, in turn order
     */
    public List<String> managers() {
        String ring;
        if (kind.equals("reentrant")) {
            String value = (String) RespClient.call(redis.port(), "GET", "locksmith:{" + name + "}");
            ring = value == null ? "" : value.split("\\|", 6)[4];
        } else {
            ring = (String) RespClient.call(redis.port(), "HGET", "locksmith:{" + name + "}:rw", "o");
        }
        return ring == null ? List.of() : Arrays.stream(ring.split(",")).filter(id -> !id.isEmpty())
                .map(id -> id.substring(0, id.length() - 1)).toList();
    }

    /**
     * Waits up to 30 s until the ring holds that many processes.
     *
     * @return the manager ids in the ring then
     */
    public List<String> awaitSize(int size) {
        Await.until("a ring of " + size + " process(es) for " + name, PATIENCE, () -> managers().size() == size,
                () -> "ring: " + managers());
        return managers();
    }

    /**
     * Waits up to 30 s until that manager is in the ring.
     */
    public void awaitContaining(String managerId) {
        Await.until(managerId + " in the ring of " + name, PATIENCE, () -> managers().contains(managerId),
                () -> "ring: " + managers());
    }
}
