package dev.locksmith.testing;

/**
 * Where tests get Redis servers: in Docker through Testcontainers when an engine answers,
 * otherwise the machine's {@code redis-server}; a clear failure when neither exists.
 */
public final class RedisServers {
    private static final boolean DOCKER = ContainerRedisServer.dockerAnswers();

    private RedisServers() {
    }

    /**
     * @return a fresh, empty standalone server on loopback
     */
    public static RedisNode standalone() {
        if (DOCKER) {
            return ContainerRedisServer.start();
        }
        RedisBinary.path();
        return LocalRedisServer.start();
    }
}
