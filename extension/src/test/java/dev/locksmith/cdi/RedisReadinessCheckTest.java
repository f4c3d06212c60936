package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.testing.Await;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.TestConfig;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Set;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The extension's readiness check follows the Redis connection: UP while Redis answers, DOWN
 * (quickly, with the reason) while it does not, UP again when it is back.
 */
@EnableWeld
class RedisReadinessCheckTest {
    private static LocalRedisServer server;
    private static TestConfig config;

    @WeldSetup
    WeldInitiator weld = WeldInitiator.from(CdiContainers.weld()).build();

    @Inject
    @Readiness
    Instance<HealthCheck> readiness;

    @Inject
    BeanManager beanManager;

    @BeforeAll
    static void startRedis() {
        server = LocalRedisServer.start();
        config = TestConfig.redis(server.uri());
    }

    @AfterAll
    static void stopRedis() {
        config.close();
        server.close();
    }

    @Test
    void readinessFollowsTheRedisConnection() {
        HealthCheck check = readiness.get();

        assertThat(check.call().getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(check.call().getName()).isEqualTo("locksmith-redis");

        server.kill();
        long start = System.nanoTime();
        HealthCheckResponse down = check.call();
        assertThat(down.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("a probe must not hang").isLessThan(Duration.ofSeconds(3));
        assertThat(down.getData().orElseThrow().get("error").toString()).contains("127.0.0.1:" + server.port());

        server.restart();
        Await.until("readiness is UP again", Duration.ofSeconds(30),
                () -> check.call().getStatus() == HealthCheckResponse.Status.UP);
    }

    /**
     * WildFly's Health subsystem looks for checks from a bean archive of its own, which does not
     * see the one Locksmith's extension lands in (its jar has no beans.xml). A bean added through
     * {@code AfterBeanDiscovery.addBean(Bean)} lands in the archive of its bean class; the archive
     * of the bootstrap class loader's classes is seen by every other, on every Weld-based server.
     */
    @Test
    void theReadinessBeanBelongsToTheArchiveEveryOtherSeesSoEveryHealthImplementationFindsIt() {
        Set<Bean<?>> beans = beanManager.getBeans(HealthCheck.class, Readiness.Literal.INSTANCE);

        assertThat(beans).singleElement()
                .satisfies(bean -> assertThat(bean.getBeanClass().getClassLoader()).as("%s", bean).isNull());
    }
}
