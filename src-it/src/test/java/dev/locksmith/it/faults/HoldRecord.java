package dev.locksmith.it.faults;

/**
 * One hold a {@link FaultRunWorker} reported.
 *
 * @param worker   the worker JVM
 * @param name     the lock name
 * @param token    its fencing token, -1 if it could not be read
 * @param acquired wall-clock ms just after the lock was granted
 * @param released wall-clock ms just before unlock
 * @param first    the first write: accepted, stale or failed
 * @param second   the second write, after a pause
 * @param unlock   ok (the lock was held throughout), lost or failed
 */
record HoldRecord(String worker, String name, long token, long acquired, long released, String first, String second,
        String unlock) {

    /**
     * @param worker the worker that printed it
     * @param line   {@code HOLD name token acquiredMs releasedMs first second unlock}
     */
    static HoldRecord parse(String worker, String line) {
        String[] part = line.split(" ");
        return new HoldRecord(worker, part[1], Long.parseLong(part[2]), Long.parseLong(part[3]), Long.parseLong(part[4]),
                part[5], part[6], part[7]);
    }

    /**
     * @return whether unlock confirmed that the lock was held from {@link #acquired} to {@link #released}
     */
    boolean heldThroughout() {
        return "ok".equals(unlock);
    }

    boolean overlaps(HoldRecord other) {
        return acquired < other.released && other.acquired < released;
    }

    int acceptedWrites() {
        return ("accepted".equals(first) ? 1 : 0) + ("accepted".equals(second) ? 1 : 0);
    }

    int staleWrites() {
        return ("stale".equals(first) ? 1 : 0) + ("stale".equals(second) ? 1 : 0);
    }
}
