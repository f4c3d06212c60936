package dev.locksmith.benchmarks;

import java.util.List;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson on a single server, with Redisson's defaults (watchdog lease, connection pool), and
 * its counterpart of every lock kind.
 */
final class RedissonLockClient implements LockClient {
    private final RedissonClient redisson;

    private RedissonLockClient(String redisUri) {
        this.redisson = connect(redisUri);
    }

    /**
     * @return a client on the one server, or a {@link RedissonRedLockClient} over the RedLock masters
     */
    static LockClient connect(Scenario.Servers servers, List<String> redisUris) {
        return switch (servers) {
            case ONE -> new RedissonLockClient(redisUris.get(0));
            case REDLOCK_MASTERS -> new RedissonRedLockClient(redisUris);
        };
    }

    /**
     * @return a Redisson client on one server, configured as its documentation's first example
     */
    static RedissonClient connect(String redisUri) {
        Config config = new Config();
        config.useSingleServer().setAddress(redisUri);
        return Redisson.create(config);
    }

    @Override
    public CycleLock lockFor(Scenario.Kind kind, String name) {
        RLock lock = switch (kind) {
            case REENTRANT -> redisson.getLock(name);
            case FAIR -> redisson.getFairLock(name);
            case READ -> redisson.getReadWriteLock(name).readLock();
            case WRITE -> redisson.getReadWriteLock(name).writeLock();
            case MULTI_3 -> redisson.getMultiLock(Scenario.Kind.memberNames(name).stream()
                    .map(redisson::getLock).toArray(RLock[]::new));
        };
        return CycleLock.of(lock);
    }

    @Override
    public void close() {
        redisson.shutdown();
    }
}
