package dev.locksmith.benchmarks;

import java.util.ArrayList;
import java.util.List;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Redisson's RedLock as its documentation shows it: one Redisson client per independent master,
 * and a {@code RedissonRedLock} over the {@code RLock} of the same name on each.
 *
 * <p>Redisson deprecates {@code RedissonRedLock} (and {@code getRedLock}) in favour of {@code RLock}
 * and {@code RFencedLock} on one deployment whose replicas acknowledge each lock. That is a
 * different algorithm on different servers, so the deprecated class, still shipped and working,
 * is the only thing to set beside Locksmith's {@code RedisMode.REDLOCK}.
 */
final class RedissonRedLockClient implements LockClient {
    private final List<RedissonClient> masters = new ArrayList<>();

    /**
     * @param redisUris one per master
     */
    RedissonRedLockClient(List<String> redisUris) {
        try {
            for (String uri : redisUris) {
                masters.add(RedissonLockClient.connect(uri));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    @SuppressWarnings("deprecation") // RedLock over independent masters: see the class comment
    public CycleLock lockFor(Scenario.Kind kind, String name) {
        if (kind != Scenario.Kind.REENTRANT) {
            throw new UnsupportedOperationException("The Redisson RedLock benchmark takes reentrant locks only, not " + kind);
        }
        RLock[] locks = masters.stream().map(master -> master.getLock(name)).toArray(RLock[]::new);
        return CycleLock.of(masters.get(0).getRedLock(locks), true);
    }

    @Override
    public void close() {
        masters.forEach(RedissonClient::shutdown);
    }
}
