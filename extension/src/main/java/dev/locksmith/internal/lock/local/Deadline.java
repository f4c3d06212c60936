package dev.locksmith.internal.lock.local;

/**
 * A point in {@link System#nanoTime()} time by which a wait must end, or none.
 */
public final class Deadline {
    private static final Deadline NEVER = new Deadline(Long.MAX_VALUE, true);

    private final long atNanos;
    private final boolean infinite;

    private Deadline(long atNanos, boolean infinite) {
        this.atNanos = atNanos;
        this.infinite = infinite;
    }

    public static Deadline never() {
        return NEVER;
    }

    /**
     * @param nanos how long from now; zero or less is already past, beyond centuries is never
     */
    public static Deadline in(long nanos) {
        if (nanos >= Long.MAX_VALUE / 2) {
            return NEVER; // further than any wait can last, and System.nanoTime() + nanos would overflow
        }
        return new Deadline(System.nanoTime() + Math.max(0, nanos), false);
    }

    public boolean isInfinite() {
        return infinite;
    }

    public long remainingNanos() {
        return infinite ? Long.MAX_VALUE : atNanos - System.nanoTime();
    }

    public boolean hasPassed() {
        return remainingNanos() <= 0;
    }
}
