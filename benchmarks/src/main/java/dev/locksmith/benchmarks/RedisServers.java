package dev.locksmith.benchmarks;

import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.RedisNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Every redis-server of a run, on free loopback ports: the one all single-server scenarios share,
 * and three independent masters for RedLock. Closing stops them all; the fixture's own shutdown
 * hook kills any still running when the JVM exits (Ctrl-C included).
 */
final class RedisServers implements AutoCloseable {
    private static final int REDLOCK_MASTERS = 3;

    private final RedisNode single;
    private final List<RedisNode> redLockMasters;
    private final List<RedisNode> all;

    private RedisServers(RedisNode single, List<RedisNode> redLockMasters, List<RedisNode> all) {
        this.single = single;
        this.redLockMasters = List.copyOf(redLockMasters);
        this.all = List.copyOf(all);
    }

    /**
     * Starts every server, or none: the ones already started are stopped if a later one fails.
     *
     * @throws IllegalStateException if a server does not start, with its log
     */
    static RedisServers start() {
        List<RedisNode> started = new ArrayList<>();
        try {
            RedisNode single = LocalRedisServer.start();
            started.add(single);
            List<RedisNode> masters = new ArrayList<>();
            for (int i = 0; i < REDLOCK_MASTERS; i++) {
                RedisNode master = LocalRedisServer.start();
                started.add(master);
                masters.add(master);
            }
            return new RedisServers(single, masters, started);
        } catch (RuntimeException e) {
            started.forEach(RedisNode::close);
            throw e;
        }
    }

    /**
     * @return the server all single-server scenarios share
     */
    RedisNode single() {
        return single;
    }

    /**
     * @return the servers a scenario on {@code servers} uses
     */
    List<RedisNode> of(Scenario.Servers servers) {
        return switch (servers) {
            case ONE -> List.of(single);
            case REDLOCK_MASTERS -> redLockMasters;
        };
    }

    /**
     * Stops every server; each is tried even if another fails to stop.
     */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (RedisNode node : all) {
            try {
                node.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
