package dev.locksmith.vthreads;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one lock name guards in a test: who is inside (exclusive holders and readers) and a counter
 * updated without any other synchronization, so that a lost update shows that two were inside at once.
 */
final class Exclusion {
    private final AtomicInteger writers = new AtomicInteger();
    private final AtomicInteger readers = new AtomicInteger();
    private final AtomicInteger overlaps = new AtomicInteger();
    // Updated under the distributed lock alone; volatile only so that the test thread reads the last value.
    private volatile long counter;

    /**
     * Runs one exclusive holder's update; counts an overlap if anyone else was inside.
     */
    void write() {
        if (writers.incrementAndGet() != 1 || readers.get() != 0) {
            overlaps.incrementAndGet();
        }
        long seen = counter;
        Thread.yield(); // lets another virtual thread run here, which only a broken lock would let in
        counter = seen + 1;
        writers.decrementAndGet();
    }

    /**
     * Runs one reader's look; counts an overlap if a writer was inside.
     */
    void read() {
        readers.incrementAndGet();
        if (writers.get() != 0) {
            overlaps.incrementAndGet();
        }
        Thread.yield();
        if (writers.get() != 0) {
            overlaps.incrementAndGet();
        }
        readers.decrementAndGet();
    }

    /**
     * @return how many updates were made
     */
    long counter() {
        return counter;
    }

    /**
     * @return how many times someone found another holder inside
     */
    int overlaps() {
        return overlaps.get();
    }
}
