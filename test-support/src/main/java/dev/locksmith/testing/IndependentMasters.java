package dev.locksmith.testing;

import java.util.List;

/**
 * Several standalone masters that know nothing of each other, as RedLock needs: each on its
 * own free loopback port, each can crash and come back empty on the same port.
 *
 * <pre>{@code
 * try (IndependentMasters masters = IndependentMasters.start(3)) {
 *     Locksmith.builder().mode(RedisMode.REDLOCK).redisUri(masters.uris()) ...
 *     masters.kill(0);
 *     masters.restart(0);
 * }
 * }</pre>
 */
public final class IndependentMasters implements AutoCloseable {
    private final NodeGroup group;
    private final List<LocalRedisServer> masters;

    private IndependentMasters(NodeGroup group) {
        this.group = group;
        this.masters = group.nodes();
    }

    /**
     * @param count how many masters, one or more (RedLock wants 3 or 5)
     * @return the running masters
     * @throws IllegalStateException with the failing server's log if one does not start; the
     *                               others are stopped
     */
    public static IndependentMasters start(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("Independent masters need a count of one or more, not " + count);
        }
        NodeGroup group = new NodeGroup();
        try {
            for (int i = 0; i < count; i++) {
                group.add(LocalRedisServer::start);
            }
            return new IndependentMasters(group);
        } catch (RuntimeException e) {
            throw group.closeAfter(e);
        }
    }

    /**
     * @return how many masters there are
     */
    public int size() {
        return masters.size();
    }

    /**
     * @param index from 0
     * @return that master's {@code redis://127.0.0.1:port}
     */
    public String uri(int index) {
        return masters.get(index).uri();
    }

    /**
     * @return {@code redis://127.0.0.1:p1,redis://127.0.0.1:p2,...} in index order
     */
    public String uris() {
        return String.join(",", masters.stream().map(LocalRedisServer::uri).toList());
    }

    /**
     * @param index from 0
     * @return that master, for pauses and signals
     */
    public LocalRedisServer node(int index) {
        return masters.get(index);
    }

    /**
     * @return every master, in index order
     */
    public List<LocalRedisServer> nodes() {
        return masters;
    }

    /**
     * Crashes one master (SIGKILL); its data is gone.
     *
     * @param index from 0
     */
    public void kill(int index) {
        masters.get(index).kill();
    }

    /**
     * Starts a {@linkplain #kill killed} master again, empty, on the same port.
     *
     * @param index from 0
     * @throws IllegalStateException if it is still running, or with its log if it does not start
     */
    public void restart(int index) {
        masters.get(index).restart();
    }

    /**
     * @return every master's address, state and log tail, for error messages
     */
    public String describe() {
        return group.describe();
    }

    /**
     * Kills every master.
     */
    @Override
    public void close() {
        group.close();
    }
}
