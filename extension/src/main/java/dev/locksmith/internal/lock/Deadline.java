package dev.locksmith.internal.lock;

/**
 * A point in {@link System#nanoTime()} time by which a wait must end, or none.
 */
final class Deadline {
    private static final Deadline NEVER = new Deadline(Long.MAX_VALUE, true);

    private final long atNanos;
    private final boolean infinite;

    private Deadline(long atNanos, boolean infinite) {
        this.atNanos = atNanos;
        this.infinite = infinite;
    }

    static Deadline never() {
        return NEVER;
    }

    /**
     * @param nanos how long from now; zero or less is already past, beyond centuries is never
     */
    static Deadline in(long nanos) {
        if (nanos >= Long.MAX_VALUE / 2) {
            return NEVER; // further than any wait can last, and System.nanoTime() + nanos would overflow
        }
        return new Deadline(System.nanoTime() + Math.max(0, nanos), false);
    }

    boolean isInfinite() {
        return infinite;
    }

    long remainingNanos() {
        return infinite ? Long.MAX_VALUE : atNanos - System.nanoTime();
    }

    boolean hasPassed() {
        return remainingNanos() <= 0;
    }
}
