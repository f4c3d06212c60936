package dev.locksmith.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * MicroProfile Config pointing Locksmith at the test class's Redis, registered for the whole
 * class. Order it after the {@link RedisServerExtension}, which must start the server first:
 *
 * <pre>{@code
 * @RegisterExtension
 * @Order(1)
 * static final RedisServerExtension redis = new RedisServerExtension();
 * @RegisterExtension
 * @Order(2)
 * static final RedisConfigExtension config = new RedisConfigExtension(redis, "locksmith.lease-time", "600ms");
 * }</pre>
 */
public final class RedisConfigExtension implements BeforeAllCallback, AfterAllCallback {
    private final RedisServerExtension redis;
    private final String[] more;
    private TestConfig config;

    /**
     * @param redis the class's server
     * @param more  further properties as key, value, key, value...
     */
    public RedisConfigExtension(RedisServerExtension redis, String... more) {
        this.redis = redis;
        this.more = more.clone();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        config = TestConfig.redis(redis.uri(), more);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        config.close();
    }
}
