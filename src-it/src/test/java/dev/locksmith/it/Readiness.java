package dev.locksmith.it;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Waits for MicroProfile Health's readiness ({@code /health/ready}) to report a status on
 * every server. Readiness is polled because it has no push; the deadline, not the poll
 * interval, decides the outcome.
 */
final class Readiness {
    private static final long POLL_MILLIS = 250;

    private Readiness() {
    }

    static void awaitStatus(List<SampleClient> servers, String status, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        for (SampleClient server : servers) {
            Reply last = server.readiness();
            while (!status.equals(last.string("status"))) {
                if (System.nanoTime() > end) {
                    throw new AssertionError("Readiness of " + server.name() + " did not become " + status + " within "
                            + deadline + "; last answer: " + last);
                }
                try {
                    TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
                last = server.readiness();
            }
        }
    }
}
