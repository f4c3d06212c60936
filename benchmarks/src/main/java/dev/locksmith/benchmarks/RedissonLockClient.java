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
        return switch (kind) {
            case REENTRANT -> CycleLock.of(redisson.getLock(name), true);
            case FAIR -> CycleLock.of(redisson.getFairLock(name), true);
            case READ -> CycleLock.of(redisson.getReadWriteLock(name).readLock(), false);
            case WRITE -> CycleLock.of(redisson.getReadWriteLock(name).writeLock(), true);
            case READ_WRITE_MIXED -> CycleLock.mixed(redisson.getReadWriteLock(name).readLock(),
                    redisson.getReadWriteLock(name).writeLock());
            case MULTI_3 -> CycleLock.of(redisson.getMultiLock(Scenario.Kind.memberNames(name).stream()
                    .map(redisson::getLock).toArray(RLock[]::new)), true);
        };
    }

    @Override
    public void close() {
        redisson.shutdown();
    }
}
