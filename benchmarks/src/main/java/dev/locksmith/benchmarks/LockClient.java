package dev.locksmith.benchmarks;

/**
 * One contender, connected to Redis: hands out the lock of a name. Connecting and closing are
 * outside the measured window.
 */
interface LockClient extends AutoCloseable {

    /**
     * @param name the lock name; the same name is the same lock in every JVM
     * @return the lock; cheap to ask for once per thread
     */
    CycleLock lockFor(String name);

    /**
     * Disconnects; the locks handed out stop working.
     */
    @Override
    void close();
}
