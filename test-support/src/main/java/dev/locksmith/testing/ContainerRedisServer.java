package dev.locksmith.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A Redis server in a Docker container, used when a Docker engine answers. Its port is
 * published on the loopback interface only.
 */
final class ContainerRedisServer implements RedisNode {
    private static final DockerImageName IMAGE = DockerImageName.parse("redis:7.2-alpine");

    private final GenericContainer<?> container;

    private ContainerRedisServer() {
        container = new GenericContainer<>(IMAGE)
                .withExposedPorts(6379)
                .withCommand("redis-server", "--save", "", "--appendonly", "no");
        container.start();
        String host = container.getHost();
        if (!"localhost".equals(host) && !host.startsWith("127.")) {
            container.stop();
            throw new IllegalStateException("The Docker engine publishes ports on " + host
                    + ", not on loopback; tests only talk to loopback. Unset DOCKER_HOST to use the local redis-server.");
        }
    }

    static ContainerRedisServer start() {
        return new ContainerRedisServer();
    }

    /**
     * @return true when a Docker engine is configured and answers
     */
    static boolean dockerAnswers() {
        boolean configured = System.getenv("DOCKER_HOST") != null || Files.exists(Path.of("/var/run/docker.sock"));
        if (!configured) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public String uri() {
        return "redis://127.0.0.1:" + port();
    }

    @Override
    public int port() {
        return container.getMappedPort(6379);
    }

    @Override
    public String command(String... words) {
        Object reply = RespClient.call(port(), words);
        return reply == null ? null : reply.toString();
    }

    @Override
    public void kill() {
        container.getDockerClient().killContainerCmd(container.getContainerId()).exec();
    }

    @Override
    public void close() {
        container.stop();
    }

    @Override
    public String toString() {
        return "redis in container " + container.getContainerId() + " on " + uri();
    }
}
