package dev.locksmith.benchmarks;

import java.util.List;

/**
 * The lock implementations the benchmark compares, each connected the way its users would.
 */
enum Contender {
    LOCKSMITH("Locksmith", (servers, uris, database) -> new LocksmithClient(servers, uris)),
    /** Locksmith recording every metric into an OpenTelemetry SDK: what telemetry costs. */
    LOCKSMITH_TELEMETRY("Locksmith, OpenTelemetry on", (servers, uris, database) -> LocksmithClient.withTelemetry(servers, uris)),
    /** Locksmith's {@code @Locked} interceptor on a Weld SE bean: what the interceptor costs. */
    LOCKSMITH_LOCKED("Locksmith, @Locked via Weld", (servers, uris, database) -> new LockedBeanClient(servers, uris)),
    /** A {@code @Locked @Transactional} method writing one row: the baseline of the fenced rows. */
    LOCKSMITH_TRANSACTION("Locksmith, @Locked @Transactional",
            (servers, uris, database) -> new TransactionalBeanClient(servers, uris, database, false)),
    /** The same method with {@code fenced = true}: what the fence costs a transaction. */
    LOCKSMITH_FENCED("Locksmith, @Locked(fenced = true) @Transactional",
            (servers, uris, database) -> new TransactionalBeanClient(servers, uris, database, true)),
    REDISSON("Redisson " + ArtifactVersions.of("org.redisson", "redisson"),
            (servers, uris, database) -> RedissonLockClient.connect(servers, uris)),
    RAW("Raw: 2 EVALSHA", (servers, uris, database) -> new RawScriptClient(uris.get(0)));

    private final String label;
    private final Connector connector;

    Contender(String label, Connector connector) {
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
     *         {@code @Locked} variant where the interceptor's own cost shows, the uncontended rows;
     *         the two transactional variants in the fenced-writes rows and nowhere else, and nobody
     *         else there (Redisson has no fenced writes to compare with)
     */
    boolean measures(Scenario scenario) {
        if (scenario.group() == Scenario.Group.FENCED) {
            return this == LOCKSMITH_TRANSACTION || this == LOCKSMITH_FENCED;
        }
        return switch (this) {
            case LOCKSMITH, REDISSON -> true;
            case RAW, LOCKSMITH_TELEMETRY -> scenario.group() == Scenario.Group.REENTRANT;
            case LOCKSMITH_LOCKED -> scenario == Scenario.UNCONTENDED_1 || scenario == Scenario.UNCONTENDED_8;
            case LOCKSMITH_TRANSACTION, LOCKSMITH_FENCED -> false;
        };
    }

    /**
     * @param servers     what the URIs are
     * @param redisUris   {@code redis://127.0.0.1:port}, one per server
     * @param databaseUrl the JDBC URL of the benchmark's PostgreSQL, or null where the scenario
     *                    uses none
     * @return a connected client; the caller closes it
     */
    LockClient connect(Scenario.Servers servers, List<String> redisUris, String databaseUrl) {
        return connector.connect(servers, redisUris, databaseUrl);
    }

    @FunctionalInterface
    private interface Connector {
        LockClient connect(Scenario.Servers servers, List<String> redisUris, String databaseUrl);
    }
}
