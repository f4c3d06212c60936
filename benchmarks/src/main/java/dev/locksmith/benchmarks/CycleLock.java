package dev.locksmith.benchmarks;

import java.util.concurrent.locks.Lock;

/**
 * One named lock as the benchmark drives it: one cycle takes it, runs the critical section and
 * gives it back. Every contender is measured through this, so the loop around it is the same for
 * all.
 */
interface CycleLock {

    /**
     * Waits until the calling thread holds the lock, runs {@code inside}, releases the hold.
     *
     * @param inside the critical section; told by {@link Inside#run(boolean)} whether the hold it
     *               runs under excludes every other holder
     * @return what {@code inside} returned
     */
    int cycle(Inside inside);

    /**
     * The critical section of a cycle.
     */
    @FunctionalInterface
    interface Inside {
        /**
         * @param exclusive true under an exclusive hold, false under a shared (read) hold
         * @return a count the caller sums (the violations the critical section saw)
         */
        int run(boolean exclusive);
    }

    /**
     * @param lock      a {@link Lock}: Locksmith's {@code DistributedLock} and Redisson's {@code RLock} both are one
     * @param exclusive false for the read side of a read/write lock
     * @return cycles of that lock's {@code lock()} and {@code unlock()}
     */
    static CycleLock of(Lock lock, boolean exclusive) {
        return inside -> {
            lock.lock();
            try {
                return inside.run(exclusive);
            } finally {
                lock.unlock();
            }
        };
    }

    /**
     * @param read  the read side of a read/write lock
     * @param write its write side
     * @return cycles that take the write side once in {@value Scenario.Kind#WRITE_EVERY} and the read side
     *         otherwise; one per thread, since it counts the thread's cycles
     */
    static CycleLock mixed(Lock read, Lock write) {
        CycleLock reading = of(read, false);
        CycleLock writing = of(write, true);
        return new CycleLock() {
            private int cycles;

            @Override
            public int cycle(Inside inside) {
                return (++cycles % Scenario.Kind.WRITE_EVERY == 0 ? writing : reading).cycle(inside);
            }
        };
    }
}
