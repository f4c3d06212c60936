package dev.locksmith.benchmarks;

import java.util.List;
import java.util.function.BiFunction;

/**
 * The lock implementations the benchmark compares, each connected the way its users would.
 */
enum Contender {
    LOCKSMITH("Locksmith", LocksmithClient::new),
    /** Locksmith recording every metric into an OpenTelemetry SDK: what telemetry costs. */
    LOCKSMITH_TELEMETRY("Locksmith, OpenTelemetry on", LocksmithClient::withTelemetry),
    REDISSON("Redisson " + ArtifactVersions.of("org.redisson", "redisson"), RedissonLockClient::connect),
    RAW("Raw: 2 EVALSHA", (servers, uris) -> new RawScriptClient(uris.get(0)));

    private final String label;
    private final BiFunction<Scenario.Servers, List<String>, LockClient> connector;

    Contender(String label, BiFunction<Scenario.Servers, List<String>, LockClient> connector) {
        this.label = label;
        this.connector = connector;
    }

    /**
     * @return the name in tables and the chart
     */
    String label() {
        return label;
    }

    /**
     * @return true if this contender has something to measure in {@code scenario}: the raw limit
     *         is a plain lock on one server, so it sits out the other kinds and RedLock; the
     *         telemetry variant is measured where its overhead shows most, the reentrant rows
     */
    boolean measures(Scenario scenario) {
        return (this != RAW && this != LOCKSMITH_TELEMETRY) || scenario.group() == Scenario.Group.REENTRANT;
    }

    /**
     * @param servers   what the URIs are
     * @param redisUris {@code redis://127.0.0.1:port}, one per server
     * @return a connected client; the caller closes it
     */
    LockClient connect(Scenario.Servers servers, List<String> redisUris) {
        return connector.apply(servers, redisUris);
    }
}
