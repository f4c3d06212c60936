package dev.locksmith.internal.store;

import dev.locksmith.RedisMode;
import dev.locksmith.internal.redis.RedisEndpoint;
import dev.locksmith.internal.redis.RedisResources;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.List;

/**
 * Where locks live: one Redis deployment ({@link SingleNodeStore}), or independent masters
 * agreeing by majority ({@code redlock.RedLockStore}). Its contract has three parts: the commands
 * a lock sends ({@link LockCommands}), what the topology is ({@link StoreTopology}) and
 * replication ({@link Replication}); code that needs one part takes that part.
 */
public interface LockStore extends LockCommands, StoreTopology, Replication, AutoCloseable {

    /**
     * Connects to one Redis deployment: a master, Sentinel or a cluster. RedLock's independent
     * masters are {@code redlock.RedLockStore}'s.
     *
     * @param resources      the manager's threads, shared by every connection
     * @param mode           how to reach Redis: not {@link RedisMode#REDLOCK}
     * @param uris           the configured URIs
     * @param commandTimeout how long one command may take
     * @return the connected store
     * @throws dev.locksmith.LockException if Redis cannot be reached
     * @throws IllegalArgumentException    for {@link RedisMode#REDLOCK}
     */
    static LockStore connectDeployment(RedisResources resources, RedisMode mode, List<RedisURI> uris,
                                       Duration commandTimeout) {
        if (mode == RedisMode.REDLOCK) {
            throw new IllegalArgumentException("RedLock's masters are no one deployment; connect them with RedLockStore");
        }
        return new SingleNodeStore(RedisEndpoint.connect(resources, mode, uris, commandTimeout));
    }

    /**
     * @return the mode and addresses, without secrets
     */
    String description();

    @Override
    void close();
}
