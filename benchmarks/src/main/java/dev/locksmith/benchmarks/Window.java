package dev.locksmith.benchmarks;

/**
 * When the worker threads start (warm-up), when counting begins, and when they stop, as
 * wall-clock milliseconds: every worker JVM on the machine reads the same clock, so all of them
 * measure the same seconds.
 *
 * @param startAt      epoch ms when the threads start cycling
 * @param measureFrom  epoch ms from which completed cycles count
 * @param measureUntil epoch ms when the threads stop
 */
record Window(long startAt, long measureFrom, long measureUntil) {
    private static final String PREFIX = "GO ";

    /**
     * @return a window beginning {@code delayMillis} from now
     */
    static Window startingIn(long delayMillis, long warmupMillis, long measureMillis) {
        long start = System.currentTimeMillis() + delayMillis;
        return new Window(start, start + warmupMillis, start + warmupMillis + measureMillis);
    }

    /**
     * @return the seconds that count
     */
    double measuredSeconds() {
        return (measureUntil - measureFrom) / 1000.0;
    }

    /**
     * @return the line that tells a worker to go
     */
    String toLine() {
        return PREFIX + startAt + " " + measureFrom + " " + measureUntil;
    }

    /**
     * @throws IllegalArgumentException if {@code line} is not one {@link #toLine()} wrote
     */
    static Window parse(String line) {
        if (line == null || !line.startsWith(PREFIX)) {
            throw new IllegalArgumentException("Expected '" + PREFIX + "start from until', got: " + line);
        }
        String[] parts = line.substring(PREFIX.length()).trim().split(" ");
        return new Window(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]));
    }

    /**
     * Sleeps until {@code epochMillis}.
     */
    static void sleepUntil(long epochMillis) throws InterruptedException {
        long left;
        while ((left = epochMillis - System.currentTimeMillis()) > 0) {
            Thread.sleep(left);
        }
    }
}
