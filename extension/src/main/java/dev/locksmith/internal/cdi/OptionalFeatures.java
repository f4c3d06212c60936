package dev.locksmith.internal.cdi;

import dev.locksmith.internal.classpath.OptionalApi;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Which optional APIs the application has and what their absence turns off, for the one startup
 * line that tells operators which parts of Locksmith run on this server.
 */
final class OptionalFeatures {
    private static final Map<OptionalApi, String> WITHOUT = Map.of(
            OptionalApi.CONFIG, "settings come from system properties",
            OptionalApi.HEALTH, "no readiness check",
            OptionalApi.JTA, "locks are released when the locked call returns, not after a transaction",
            OptionalApi.CONCURRENCY, "the watchdog and Redis I/O run on Locksmith's own threads",
            OptionalApi.OPENTELEMETRY, "no metrics or spans",
            OptionalApi.FLIGHT_RECORDER, "no Flight Recorder events");

    private OptionalFeatures() {
    }

    /**
     * @return for example {@code "MicroProfile Config on, MicroProfile Health off (no readiness
     *         check), Jakarta Transactions on, Jakarta Concurrency on"}
     */
    static String describe() {
        return Stream.of(OptionalApi.values())
                .map(api -> api.title() + (api.isPresent() ? " on" : " off (" + WITHOUT.get(api) + ")"))
                .collect(Collectors.joining(", "));
    }
}
