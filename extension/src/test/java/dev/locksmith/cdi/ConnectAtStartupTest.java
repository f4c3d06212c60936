package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.CdiContainers.Registration;
import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.TestConfig;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The application's manager connects while the application starts, with either extension: the
 * first locked call does not pay for the connection. A Redis that is down then does not fail the
 * deployment (readiness says DOWN, the manager keeps trying), unless
 * {@code locksmith.redis.fail-fast=true} asks for that.
 */
class ConnectAtStartupTest {
    private LocalRedisServer redis;
    private TestConfig config;

    @BeforeEach
    void startRedis() {
        redis = LocalRedisServer.start();
    }

    @AfterEach
    void stopRedis() {
        if (config != null) {
            config.close();
        }
        redis.close();
    }

    @ParameterizedTest
    @EnumSource(Registration.class)
    void theDeploymentConnectsBeforeAnyBeanAsksForTheManager(Registration registration) {
        config = TestConfig.redis(redis.uri(), "locksmith.key-prefix", "startup:");
        long before = clients();

        try (WeldContainer container = CdiContainers.weld(registration).initialize()) {

            assertThat(clients()).as("CLIENT LIST right after deployment, nothing looked up: the manager's command"
                    + " and pub/sub connections").isGreaterThanOrEqualTo(before + 2);
        }
        Await.until("the manager's connections are closed with the container", Duration.ofSeconds(10),
                () -> clients() == before);
    }

    @ParameterizedTest
    @EnumSource(Registration.class)
    void aRedisDownAtStartupLeavesTheDeploymentUpAndItConnectsWhenRedisComes(Registration registration)
            throws Exception {
        redis.kill();
        config = TestConfig.redis(redis.uri(), "locksmith.key-prefix", "late:");

        try (WeldContainer container = CdiContainers.weld(registration).initialize()) {
            HealthCheck readiness = container.select(HealthCheck.class, Readiness.Literal.INSTANCE).get();
            LockManager locks = container.select(LockManager.class).get();

            HealthCheckResponse down = readiness.call();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getData().orElseThrow().get("error").toString())
                    .contains("has not connected to Redis at", "127.0.0.1:" + redis.port(), "keeps trying");
            assertThatThrownBy(() -> locks.getLock("late-job")).isInstanceOf(LockException.class)
                    .hasMessageContaining("has not connected to Redis").hasMessageContaining("keeps trying");

            redis.restart();
            Await.until("readiness is UP once Redis is there", Duration.ofSeconds(30),
                    () -> readiness.call().getStatus() == Status.UP);
            DistributedLock lock = locks.getLock("late-job");
            assertThat(lock.tryLock(1, TimeUnit.SECONDS)).isTrue();
            lock.unlock();
        }
    }

    @ParameterizedTest
    @EnumSource(Registration.class)
    void failFastFailsTheDeploymentNamingTheSetting(Registration registration) {
        redis.kill();
        config = TestConfig.redis(redis.uri(), "locksmith.redis.fail-fast", "true");

        Throwable failure = null;
        try (WeldContainer ignored = CdiContainers.weld(registration).initialize()) {
            // started: the assertion below says so
        } catch (RuntimeException e) {
            failure = e;
        }

        assertThat(failure).as("the deployment fails").isNotNull();
        assertThat(rootOrDeployment(failure)).isInstanceOf(DeploymentException.class);
        assertThat(CdiContainers.messages(failure)).contains("Locksmith cannot connect to Redis at",
                "127.0.0.1:" + redis.port(), "locksmith.redis.fail-fast=true", "set locksmith.redis.fail-fast=false");
    }

    private static Throwable rootOrDeployment(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof DeploymentException) {
                return t;
            }
        }
        return failure;
    }

    private long clients() {
        return redis.command("CLIENT", "LIST").lines().filter(line -> !line.isBlank()).count();
    }
}
