package dev.locksmith.benchmarks;

import java.util.function.Function;

/**
 * The lock implementations the benchmark compares, each connected the way its users would.
 */
enum Contender {
    LOCKSMITH("Locksmith", LocksmithClient::new),
    REDISSON("Redisson " + ArtifactVersions.of("org.redisson", "redisson"), RedissonLockClient::new),
    RAW("Raw: 2 EVALSHA", RawScriptClient::new);

    private final String label;
    private final Function<String, LockClient> connector;

    Contender(String label, Function<String, LockClient> connector) {
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
     * @param redisUri {@code redis://127.0.0.1:port}
     * @return a connected client; the caller closes it
     */
    LockClient connect(String redisUri) {
        return connector.apply(redisUri);
    }
}
