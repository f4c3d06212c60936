package dev.locksmith.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The processes one topology started, in start order: it kills them all together, even when
 * the topology failed halfway through starting, and gathers their logs for error messages.
 */
final class NodeGroup implements AutoCloseable {
    private final List<LocalRedisServer> nodes = new ArrayList<>();

    /**
     * Starts a node and remembers it, so that a failure later in the startup still stops it.
     *
     * @param start starts the node
     * @return the started node
     */
    synchronized LocalRedisServer add(Supplier<LocalRedisServer> start) {
        LocalRedisServer node = start.get();
        nodes.add(node);
        return node;
    }

    /**
     * @return the nodes, in start order
     */
    synchronized List<LocalRedisServer> nodes() {
        return List.copyOf(nodes);
    }

    /**
     * @return every node's address, state and log tail
     */
    String describe() {
        return nodes().stream().map(LocalRedisServer::describe).collect(Collectors.joining("\n"));
    }

    /**
     * Kills every node after a failed startup, keeping the startup's failure as the one to report.
     *
     * @param failure why the startup failed
     * @return {@code failure}, with any error of the cleanup suppressed in it
     */
    RuntimeException closeAfter(RuntimeException failure) {
        try {
            close();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
        return failure;
    }

    /**
     * Kills every node, the last started first; a test fixture needs no graceful shutdown, and
     * a master stopped with SIGTERM would wait for lagging replicas.
     */
    @Override
    public void close() {
        List<LocalRedisServer> started = nodes();
        RuntimeException failure = null;
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).kill();
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
