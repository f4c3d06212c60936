package dev.locksmith.testing;

import java.util.List;

/**
 * The {@code redis-server} processes this JVM started that are still alive, as the operating
 * system sees them: what a fixture must leave behind is none.
 */
final class RedisChildren {
    private RedisChildren() {
    }

    /**
     * @return each live descendant {@code redis-server} as "pid command line"
     */
    static List<String> alive() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().orElse("").contains("redis-server"))
                .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
    }
}
