package dev.locksmith.cdi;

import static dev.locksmith.testing.TestConfig.properties;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.Locked;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.CdiContainers.Application;
import dev.locksmith.testing.LogCapture;
import dev.locksmith.testing.RedisServerExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The application-wide MicroProfile Config keys: durations in both forms, the defaults, the
 * deployment failures for bad values, and Redis credentials kept out of every log line.
 */
class ConfigurationTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void durationsAreReadInIsoAndShortFormAndTheDefaultWaitAppliesToMinusOne() throws Exception {
        try (Application app = CdiContainers.start(properties(redis.uri(), "locksmith.lease-time", "PT1S",
                "locksmith.wait-time", "250ms"), Jobs.class);
             LockManager otherJvm = Locksmith.builder().redisUri(redis.uri()).build()) {
            Jobs jobs = app.get(Jobs.class);
            LockManager locks = app.get(LockManager.class);

            Duration lease = jobs.run(() -> locks.getLock("job").remainingLease());
            DistributedLock busy = otherJvm.getLock("job");
            busy.lock();
            try {
                assertThatThrownBy(() -> jobs.run(() -> true))
                        .isInstanceOf(LockTimeoutException.class).hasMessageContaining("within 250ms");
            } finally {
                busy.unlock();
            }

            assertThat(lease).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(1));
        }
    }

    @Test
    void withoutARedisUriOfItsOwnLocksmithUsesQuarkusRedisHosts() throws Exception {
        try (Application app = CdiContainers.start(Map.of("quarkus.redis.hosts", redis.uri()), Jobs.class)) {
            LockManager locks = app.get(LockManager.class);

            boolean heldInThatRedis = app.get(Jobs.class).run(() -> !redis.keys("locksmith:{job}").isEmpty());

            assertThat(heldInThatRedis).isTrue();
            assertThat(locks.getLock("job").isLocked()).isFalse();
        }
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "locksmith.lease-time         | thirty     | locksmith.lease-time: 'thirty' is not a duration; write ISO-8601",
        "locksmith.lease-time         | 50ms       | locksmith.lease-time = '50ms': Lease time PT0.05S is too short; it must be at least 100ms",
        "locksmith.wait-time          | -1s        | locksmith.wait-time = '-1s': Default wait PT-1S is negative",
        "locksmith.redis.sync-timeout | soon       | locksmith.redis.sync-timeout: 'soon' is not a duration",
        "locksmith.redis.command-timeout | 0s      | locksmith.redis.command-timeout = '0s': Command timeout PT0S is too short",
        "locksmith.redis.mode         | paxos      | locksmith.redis.mode = 'paxos' is not a mode; use one of standalone, sentinel, cluster, redlock",
        "locksmith.redis.sync-replicas | two       | locksmith.redis.sync-replicas = 'two' is not a number of replicas",
        "locksmith.redis.sync-replicas | -1        | locksmith.redis.sync-replicas = '-1': Sync replicas -1 is not a number of replicas",
        "locksmith.key-prefix         | app{1}:    | locksmith.key-prefix = 'app{1}:': Key prefix 'app{1}:' must not contain '{' or '}'",
    })
    void aBadValueFailsTheDeploymentNamingTheKeyAndTheFix(String key, String value, String expected) {
        Throwable failure = CdiContainers.startFailure(properties(redis.uri(), key, value), Jobs.class);

        assertThat(failure).isInstanceOf(DeploymentException.class);
        assertThat(CdiContainers.messages(failure)).contains("Locksmith configuration: " + expected);
    }

    @Test
    void aBadRedisUriFailsTheDeploymentWithoutShowingItsPassword() {
        try (LogCapture logs = LogCapture.start()) {
            Throwable failure = CdiContainers.startFailure(properties(
                    "redis://app:s3cret-pass@127.0.0.1:7001,redis://app:s3cret-pass@127.0.0.1:7002"), Jobs.class);

            assertThat(failure).isInstanceOf(DeploymentException.class);
            assertThat(CdiContainers.messages(failure))
                    .contains("locksmith.redis.uri: Redis mode STANDALONE takes one URI, got 2")
                    .doesNotContain("s3cret-pass");
            assertThat(logs.messages()).noneMatch(line -> line.contains("s3cret-pass"));
        }
    }

    @Test
    void redisCredentialsInTheUriAreUsedButNeverLogged() throws Exception {
        redis.node().command("ACL", "SETUSER", "app", "on", ">s3cret-pass", "~*", "&*", "+@all");
        String uri = "redis://app:s3cret-pass@127.0.0.1:" + redis.node().port();
        try (LogCapture logs = LogCapture.start();
             Application app = CdiContainers.start(properties(uri), Jobs.class)) {
            Jobs jobs = app.get(Jobs.class);

            assertThat(jobs.run(() -> "ran")).isEqualTo("ran");

            assertThat(logs.messages()).anyMatch(line -> line.contains("127.0.0.1:" + redis.node().port()));
            assertThat(logs.messages()).noneMatch(line -> line.contains("s3cret-pass"));
        } finally {
            redis.node().command("ACL", "DELUSER", "app");
        }
    }

    @ApplicationScoped
    static class Jobs {
        @Locked("job")
        public <T> T run(Callable<T> inside) throws Exception {
            return inside.call();
        }
    }
}
