package dev.locksmith.testing;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;

/**
 * MicroProfile Config for one test: the given properties, registered for the test's class
 * loader so that {@code ConfigProvider.getConfig()} returns them, until {@link #close()}.
 *
 * <pre>{@code
 * try (TestConfig config = TestConfig.of(Map.of("locksmith.redis.uri", redis.uri()))) { ... }
 * }</pre>
 */
public final class TestConfig implements AutoCloseable {
    private final Config config;

    private TestConfig(Config config) {
        this.config = config;
    }

    /**
     * @param properties the configuration; replaces any registered before
     * @return the registration, to close when the test ends
     */
    public static TestConfig of(Map<String, String> properties) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        try {
            resolver.releaseConfig(resolver.getConfig(loader));
        } catch (IllegalStateException e) {
            // nothing registered yet
        }
        Config config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(new HashMap<>(properties), "test", 500))
                .build();
        resolver.registerConfig(config, loader);
        return new TestConfig(config);
    }

    /**
     * @param redisUri where the test's Redis listens
     * @param more     further properties as key, value, key, value...
     * @return the registration
     */
    public static TestConfig redis(String redisUri, String... more) {
        return of(properties(redisUri, more));
    }

    /**
     * @param redisUri where the test's Redis listens
     * @param more     further properties as key, value, key, value...
     * @return {@code locksmith.redis.uri} and the further properties
     */
    public static Map<String, String> properties(String redisUri, String... more) {
        Map<String, String> properties = new HashMap<>();
        properties.put("locksmith.redis.uri", redisUri);
        for (int i = 0; i + 1 < more.length; i += 2) {
            properties.put(more[i], more[i + 1]);
        }
        return properties;
    }

    @Override
    public void close() {
        ConfigProviderResolver.instance().releaseConfig(config);
    }
}
