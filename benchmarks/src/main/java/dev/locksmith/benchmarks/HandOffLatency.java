package dev.locksmith.benchmarks;

/**
 * The hand-offs between processes of one measured window, as {@link HandOffProbe} counted them:
 * from a holder's {@code unlock()} call to another process's {@code lock()} returning.
 *
 * @param acquisitions every acquisition in the counted window, by another process or not
 * @param count     hand-offs whose acquisition fell in the counted window
 * @param p50Micros the median latency, in microseconds; NaN without hand-offs
 * @param p99Micros the 99th percentile, in microseconds; NaN without hand-offs
 * @param releaseP50Micros the median of the releasers' own {@code unlock()} calls in the window, in
 *                  microseconds: the release's round trip, which every hand-off contains; NaN without releases
 */
record HandOffLatency(long acquisitions, long count, double p50Micros, double p99Micros, double releaseP50Micros) {
    /** Where nothing was measured. */
    static final HandOffLatency NONE = new HandOffLatency(0, 0, Double.NaN, Double.NaN, Double.NaN);

    /**
     * @param acquisitions every acquisition counted
     * @param counts       hand-offs per {@link HandOffProbe#bucket} index
     * @param releases     releases per {@link HandOffProbe#bucket} index
     */
    static HandOffLatency of(long acquisitions, long[] counts, long[] releases) {
        long total = total(counts);
        long released = total(releases);
        double releaseP50 = released == 0 ? Double.NaN : percentile(releases, released, 0.50);
        if (total == 0) {
            return new HandOffLatency(acquisitions, 0, Double.NaN, Double.NaN, releaseP50);
        }
        return new HandOffLatency(acquisitions, total, percentile(counts, total, 0.50), percentile(counts, total, 0.99),
                releaseP50);
    }

    private static long total(long[] counts) {
        long total = 0;
        for (long count : counts) {
            total += count;
        }
        return total;
    }

    /**
     * @return the share of the acquisitions that were hand-offs from another process; NaN without acquisitions
     */
    double share() {
        return acquisitions == 0 ? Double.NaN : (double) count / acquisitions;
    }

    private static double percentile(long[] counts, long total, double quantile) {
        long rank = Math.max(1, (long) Math.ceil(quantile * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return HandOffProbe.middleMicros(i);
            }
        }
        return HandOffProbe.middleMicros(counts.length - 1);
    }
}
