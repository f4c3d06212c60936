package dev.locksmith.benchmarks;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@code RLock} on a single server, with Redisson's defaults (watchdog lease,
 * connection pool).
 */
final class RedissonLockClient implements LockClient {
    private final RedissonClient redisson;

    RedissonLockClient(String redisUri) {
        Config config = new Config();
        config.useSingleServer().setAddress(redisUri);
        this.redisson = Redisson.create(config);
    }

    @Override
    public CycleLock lockFor(String name) {
        return CycleLock.of(redisson.getLock(name));
    }

    @Override
    public void close() {
        redisson.shutdown();
    }
}
