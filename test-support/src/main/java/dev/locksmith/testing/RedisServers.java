package dev.locksmith.testing;

/**
 * Where tests get Redis servers: in Docker through Testcontainers when it is on the class path
 * and an engine answers, otherwise the machine's {@code redis-server}; a clear failure when
 * neither exists.
 */
public final class RedisServers {
    private static final boolean DOCKER = testcontainersPresent() && ContainerRedisServer.dockerAnswers();

    private RedisServers() {
    }

    /** Testcontainers is an optional dependency: without it, the local binary is the only way. */
    private static boolean testcontainersPresent() {
        try {
            Class.forName("org.testcontainers.DockerClientFactory", false, RedisServers.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
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
