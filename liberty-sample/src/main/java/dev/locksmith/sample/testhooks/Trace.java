package dev.locksmith.sample.testhooks;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * What one traced request reached, and the latch that releases it where it was told to stop.
 */
final class Trace {
    private static final Logger LOG = Logger.getLogger(Trace.class.getName());
    // A forgotten resume must not hang a server thread for good.
    private static final Duration LONGEST_PAUSE = Duration.ofMinutes(2);

    private final String id;
    private final Map<Point, CountDownLatch> reached = new EnumMap<>(Point.class);
    private final CountDownLatch resumed = new CountDownLatch(1);

    Trace(String id) {
        this.id = id;
        for (Point point : Point.values()) {
            reached.put(point, new CountDownLatch(1));
        }
    }

    void reach(Point point, boolean pause) {
        reached.get(point).countDown();
        if (!pause) {
            return;
        }
        LOG.info(() -> "Test hook: request " + id + " paused at " + point);
        try {
            if (!resumed.await(LONGEST_PAUSE.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warning(() -> "Test hook: request " + id + " was never resumed; going on after " + LONGEST_PAUSE);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info(() -> "Test hook: request " + id + " goes on from " + point);
    }

    boolean awaitReached(Point point, Duration timeout) throws InterruptedException {
        return reached.get(point).await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    void resume() {
        resumed.countDown();
    }
}
