package dev.locksmith.internal.lock.ring;

/**
 * The latest the server's clock can read now, from this process's clock: learnt from answers that
 * told the server's time, each read by Redis after its request was sent. Between two moments, the
 * server's clock advances at most {@link #DRIFT} faster than this process's: the assumption Redis
 * makes itself when it expires a key, a lease, on its own clock. Not thread-safe: its
 * {@code ProcessRing} guards it.
 */
final class ServerClockBound {
    /** How much faster than ours the server's clock may run, at most: twice what NTP allows a clock to slew. */
    static final double DRIFT = 0.001;

    private long sentNanos;
    private long serverMillis = -1;

    /**
     * Learns from an answer, keeping whichever of it and the bound known so far is the tighter now.
     *
     * @param requestSentNanos when the request was sent, on this process's clock
     * @param answeredServerMillis the server's time in its answer, truncated to the millisecond
     */
    void saw(long requestSentNanos, long answeredServerMillis) {
        if (serverMillis < 0 || latestAt(requestSentNanos, answeredServerMillis, requestSentNanos)
                <= latestAt(sentNanos, serverMillis, requestSentNanos)) {
            sentNanos = requestSentNanos;
            serverMillis = answeredServerMillis;
        }
    }

    /**
     * @return whether an answer told the server's time yet
     */
    boolean isKnown() {
        return serverMillis >= 0;
    }

    /**
     * @param nowNanos now, on this process's clock, no earlier than the answers learnt from were sent
     * @return the latest the server's clock can read now, in ms
     */
    long latestServerMillis(long nowNanos) {
        return latestAt(sentNanos, serverMillis, nowNanos);
    }

    /**
     * @param leftServerMillis a span of the server's clock
     * @return the shortest that span can be on this process's clock, in ns
     */
    static long shortestLocalNanos(long leftServerMillis) {
        return (long) (leftServerMillis * 1_000_000d / (1 + DRIFT));
    }

    private static long latestAt(long sent, long server, long nowNanos) {
        // The server read its clock no earlier than the request was sent, and at most 1 ms after
        // the value it answered (which it truncated).
        long elapsedNanos = Math.max(0, nowNanos - sent);
        return server + 1 + (long) Math.ceil(elapsedNanos * (1 + DRIFT) / 1_000_000d);
    }
}
