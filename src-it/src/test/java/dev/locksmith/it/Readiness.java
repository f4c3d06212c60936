package dev.locksmith.it;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Waits for MicroProfile Health's readiness ({@code /health/ready}) to report a status on
 * every server. Readiness is polled because it has no push; the deadline, not the poll
 * interval, decides the outcome.
 */
final class Readiness {
    private static final long POLL_MILLIS = 250;

    /** The name of Locksmith's readiness check. */
    static final String LOCKSMITH_CHECK = "locksmith-redis";

    private Readiness() {
    }

    /**
     * @param readiness an answer of {@code /health/ready}
     * @return Locksmith's check in it, or nothing if the answer has none (or is no Health answer at all)
     */
    static Optional<JsonObject> locksmithCheck(Reply readiness) {
        return readiness.body().getOrDefault("checks", JsonValue.EMPTY_JSON_ARRAY).asJsonArray().stream()
                .map(JsonObject.class::cast).filter(check -> LOCKSMITH_CHECK.equals(check.getString("name", null)))
                .findFirst();
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
