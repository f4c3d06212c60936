package dev.locksmith.benchmarks;

import java.nio.file.Path;

/**
 * Counts, per lock, the holders inside its critical section, in a memory-mapped file that every
 * worker JVM maps: exclusive holders and shared (read) holders apart. An exclusive holder that
 * finds anyone already there, or a reader that finds an exclusive holder, in this JVM or another,
 * has caught the lock letting in two holders that exclude each other: a benchmark of a broken
 * lock is worthless, so every cycle passes through here.
 */
final class OccupancyProbe implements AutoCloseable {
    /** What an exclusive holder adds to its lock's slot; a shared holder adds 1. */
    private static final long EXCLUSIVE = 1L << 32;

    private final SharedSlots slots;

    private OccupancyProbe(SharedSlots slots) {
        this.slots = slots;
    }

    /**
     * Maps {@code path}, creating it zeroed if absent.
     *
     * @param locks how many locks to watch
     */
    static OccupancyProbe map(Path path, int locks) {
        return new OccupancyProbe(SharedSlots.map(path, locks, "occupancy"));
    }

    /**
     * Call right after acquiring lock {@code lock}.
     *
     * @param exclusive true for an exclusive hold, false for a shared (read) one
     * @return true if the caller found a holder it must not share the lock with: anyone, for an
     *         exclusive hold; an exclusive holder, for a shared one
     */
    boolean enter(int lock, boolean exclusive) {
        long before = slots.getAndAdd(lock, exclusive ? EXCLUSIVE : 1L);
        return exclusive ? before != 0 : before >= EXCLUSIVE;
    }

    /**
     * Call right before releasing lock {@code lock}.
     *
     * @param exclusive as given to {@link #enter}
     * @return true if a holder the caller must not share with came in meanwhile
     */
    boolean leave(int lock, boolean exclusive) {
        long before = slots.getAndAdd(lock, exclusive ? -EXCLUSIVE : -1L);
        return exclusive ? before != EXCLUSIVE : before >= EXCLUSIVE;
    }

    @Override
    public void close() {
        slots.close();
    }
}
