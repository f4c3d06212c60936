package dev.locksmith.benchmarks;

/**
 * One contender, connected to Redis: hands out the lock of a name. Connecting and closing are
 * outside the measured window.
 */
interface LockClient extends AutoCloseable {

    /**
     * @param kind which lock of that name
     * @param name the lock name; the same name is the same lock in every JVM
     * @return the lock; cheap to ask for once per thread
     * @throws UnsupportedOperationException if this client has no such kind of lock
     */
    CycleLock lockFor(Scenario.Kind kind, String name);

    /**
     * Disconnects; the locks handed out stop working.
     */
    @Override
    void close();
}
