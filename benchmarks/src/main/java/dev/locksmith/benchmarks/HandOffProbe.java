package dev.locksmith.benchmarks;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;

/**
 * Measures how long one lock takes to pass from a holder in one process (lock manager) to the
 * next holder in another, across worker JVMs, through a memory-mapped file that every worker JVM
 * of a measurement and the parent map.
 *
 * <p>The holder stamps the time as the last thing before it calls {@code unlock()}, still holding
 * the lock, so only the holder writes the stamp; the next holder reads it as the first thing after
 * {@code lock()} returned. The latency is therefore from the release call to the acquisition's
 * return, the release's own round trip included. Stamping after {@code unlock()} returned would
 * race: Redis publishes the release before it answers, so the next holder, woken by the message,
 * can already hold the lock and read the stamp before the releaser has written it. A holder that
 * finds its own stamp (its process took the lock again) records nothing: that is no hand-off.
 *
 * <p>The clock is the system's UTC clock ({@link Clock#systemUTC()}, {@code CLOCK_REALTIME} on
 * Linux, read to the nanosecond), the one clock every JVM of the machine shares: {@code
 * System.nanoTime()} is only defined within one JVM. Its error: a reading costs about 50 ns, NTP
 * may slew the clock by at most 0.05 % of the interval, and a clock step during a window would
 * show as a wrong sample (a negative one counts as 0). Latencies go into a histogram with 1 µs
 * buckets below 128 µs and 64 buckets per doubling above (1.6 % wide), shared in the file, so the
 * percentiles are of all the JVMs' hand-offs together.
 *
 * <p>Beside it, each releasing thread records how long its own {@code unlock()} took, from the
 * same stamp to the call's return, in a second histogram: the release's round trip, which every
 * hand-off contains (Redis tells the next holder in the same script that answers the releaser), so
 * no hand-off that the release starts can be much shorter than it.
 *
 * <p>Threads: every benchmark thread of the measurement's worker JVMs (stamps, samples), and the
 * parent, between windows only (reset, read).
 */
final class HandOffProbe implements AutoCloseable {
    private static final Clock CLOCK = Clock.systemUTC();
    private static final int STAMP = 0;
    /** The releasing manager's index + 1; 0 when nobody released since the last reset. */
    private static final int RELEASER = 1;
    /** Acquisitions in the counted window, hand-offs or not. */
    private static final int ACQUISITIONS = 2;
    private static final int FIRST_BUCKET = 3;
    /** Below this many microseconds, one bucket per microsecond. */
    private static final int LINEAR = 128;
    private static final int PER_DOUBLING = 64;
    /** Doublings above {@link #LINEAR} µs covered: up to 2^31 µs, about 36 minutes. */
    private static final int DOUBLINGS = 24;
    static final int BUCKETS = LINEAR + DOUBLINGS * PER_DOUBLING;
    private static final int FIRST_RELEASE_BUCKET = FIRST_BUCKET + BUCKETS;

    private final SharedSlots slots;

    private HandOffProbe(SharedSlots slots) {
        this.slots = slots;
    }

    /**
     * Maps {@code path}, creating it zeroed if absent.
     */
    static HandOffProbe map(Path path) {
        return new HandOffProbe(SharedSlots.map(path, FIRST_RELEASE_BUCKET + BUCKETS, "hand-off"));
    }

    /**
     * @return nanoseconds since the epoch on the clock every JVM of the machine shares
     */
    static long now() {
        Instant now = CLOCK.instant();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /**
     * Call as the first thing after {@code lock()} returned.
     *
     * @param manager  the acquiring process's index over all worker JVMs
     * @param acquired {@link #now()} when {@code lock()} returned
     * @param counted  false outside the window's counted part: nothing is recorded
     */
    void acquired(int manager, long acquired, boolean counted) {
        if (!counted) {
            return;
        }
        slots.getAndAdd(ACQUISITIONS, 1L);
        long releaser = slots.get(RELEASER) - 1;
        if (releaser < 0 || releaser == manager) {
            return;
        }
        long nanos = acquired - slots.get(STAMP);
        slots.getAndAdd(FIRST_BUCKET + bucket(Math.max(0, nanos) / 1000), 1L);
    }

    /**
     * Call as the last thing before {@code unlock()}, still holding the lock.
     *
     * @param manager the releasing process's index over all worker JVMs
     * @return the stamp, for {@link #released}
     */
    long releasing(int manager) {
        long stamp = now();
        slots.set(STAMP, stamp);
        slots.set(RELEASER, (long) manager + 1);
        return stamp;
    }

    /**
     * Call as the first thing after {@code unlock()} returned.
     *
     * @param releasing what {@link #releasing} returned before that {@code unlock()}
     * @param released  {@link #now()} when {@code unlock()} returned
     * @param counted   false outside the window's counted part: nothing is recorded
     */
    void released(long releasing, long released, boolean counted) {
        if (counted) {
            slots.getAndAdd(FIRST_RELEASE_BUCKET + bucket(Math.max(0, released - releasing) / 1000), 1L);
        }
    }

    /**
     * Forgets the last stamp and every sample; only while no worker cycles.
     */
    void reset() {
        for (int i = 0; i < FIRST_RELEASE_BUCKET + BUCKETS; i++) {
            slots.set(i, 0L);
        }
    }

    /**
     * @return the hand-offs recorded since the last {@link #reset()}; only while no worker cycles
     */
    HandOffLatency read() {
        return HandOffLatency.of(slots.get(ACQUISITIONS), histogram(FIRST_BUCKET), histogram(FIRST_RELEASE_BUCKET));
    }

    private long[] histogram(int first) {
        long[] counts = new long[BUCKETS];
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] = slots.get(first + i);
        }
        return counts;
    }

    /**
     * @return the histogram bucket of a latency of {@code micros}; the last for anything longer
     */
    static int bucket(long micros) {
        if (micros < LINEAR) {
            return (int) micros;
        }
        int doubling = 63 - Long.numberOfLeadingZeros(micros); // 7 for 128..255 µs
        int index = LINEAR + (doubling - 7) * PER_DOUBLING + (int) ((micros >>> (doubling - 6)) - PER_DOUBLING);
        return Math.min(index, BUCKETS - 1);
    }

    /**
     * @return the middle of bucket {@code index}, in microseconds
     */
    static double middleMicros(int index) {
        if (index < LINEAR) {
            return index;
        }
        int doubling = 7 + (index - LINEAR) / PER_DOUBLING;
        long width = 1L << (doubling - 6);
        long lowest = (PER_DOUBLING + (index - LINEAR) % PER_DOUBLING) * width;
        return lowest + (width - 1) / 2.0;
    }

    @Override
    public void close() {
        slots.close();
    }
}
