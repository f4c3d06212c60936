package dev.locksmith.benchmarks;

import java.util.concurrent.locks.Lock;

/**
 * One named lock as the benchmark drives it: take it, give it back. Every contender is measured
 * through this, so the loop around it is the same for all.
 */
interface CycleLock {

    /**
     * Waits until the calling thread holds the lock.
     */
    void lock();

    /**
     * Releases the calling thread's hold.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold it
     */
    void unlock();

    /**
     * @param lock a {@link Lock}: Locksmith's {@code DistributedLock} and Redisson's {@code RLock} both are one
     * @return that lock's {@code lock()} and {@code unlock()}
     */
    static CycleLock of(Lock lock) {
        return new CycleLock() {
            @Override
            public void lock() {
                lock.lock();
            }

            @Override
            public void unlock() {
                lock.unlock();
            }
        };
    }
}
