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
    /** Locksmith's {@code @Locked} interceptor on a Weld SE bean: what the interceptor costs. */
    LOCKSMITH_LOCKED("Locksmith, @Locked via Weld", LockedBeanClient::new),
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
     *         telemetry variant is measured where its overhead shows most, the reentrant rows; the
     *         {@code @Locked} variant where the interceptor's own cost shows, the uncontended rows
     */
    boolean measures(Scenario scenario) {
        return switch (this) {
            case LOCKSMITH, REDISSON -> true;
            case RAW, LOCKSMITH_TELEMETRY -> scenario.group() == Scenario.Group.REENTRANT;
            case LOCKSMITH_LOCKED -> scenario == Scenario.UNCONTENDED_1 || scenario == Scenario.UNCONTENDED_8;
        };
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
