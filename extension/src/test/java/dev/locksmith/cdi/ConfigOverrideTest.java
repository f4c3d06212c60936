package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.Locked;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.cdi.LocksmithExtension;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.TestConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * MicroProfile Config overrides of {@code @Locked} in the Fault Tolerance style: the most
 * specific key wins, then the annotation, then {@code locksmith.wait-time}. Each wait is read
 * back from the timeout message of a call that finds its lock busy.
 */
@EnableWeld
class ConfigOverrideTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();
    private static TestConfig config;

    @WeldSetup
    WeldInitiator weld = WeldInitiator.from(WeldInitiator.createWeld()
            .addExtension(new LocksmithExtension())
            .addBeanClasses(Overridden.class, Untouched.class, Defaulted.class)).build();

    @Inject
    LockManager locks;
    @Inject
    Overridden overridden;
    @Inject
    Untouched untouched;
    @Inject
    Defaulted defaulted;

    private LockManager otherJvm;
    private DistributedLock busy;

    @BeforeAll
    static void configure() {
        String overriddenClass = Overridden.class.getName();
        config = TestConfig.redis(redis.uri(),
                overriddenClass + "/byMethodKey/Locked/waitTime", "PT0.3S",
                overriddenClass + "/inAnnotationUnit/Locked/waitTime", "150",
                overriddenClass + "/Locked/waitTime", "200ms",
                overriddenClass + "/leased/Locked/leaseTime", "2s",
                "Locked/waitTime", "100ms",
                "locksmith.wait-time", "250ms");
    }

    @AfterAll
    static void releaseConfig() {
        config.close();
    }

    @BeforeEach
    void holdTheLockElsewhere() {
        otherJvm = Locksmith.builder().redisUri(redis.uri()).build();
        busy = otherJvm.getLock("busy");
        busy.lock();
    }

    @AfterEach
    void releaseIt() {
        busy.unlock();
        otherJvm.close();
    }

    @Test
    void theMethodKeyWinsOverTheClassKeyTheGlobalKeyAndTheAnnotation() {
        assertThatThrownBy(() -> overridden.byMethodKey(() -> true))
                .isInstanceOf(LockTimeoutException.class).hasMessageContaining("within 300ms");
    }

    @Test
    void aPlainNumberIsReadInTheAnnotationsUnit() {
        assertThatThrownBy(() -> overridden.inAnnotationUnit(() -> true))
                .isInstanceOf(LockTimeoutException.class).hasMessageContaining("within 150ms");
    }

    @Test
    void theClassKeyWinsOverTheGlobalKeyAndTheAnnotation() {
        assertThatThrownBy(() -> overridden.byClassKey(() -> true))
                .isInstanceOf(LockTimeoutException.class).hasMessageContaining("within 200ms");
    }

    @Test
    void theGlobalKeyWinsOverTheAnnotation() {
        assertThatThrownBy(() -> untouched.annotatedFiveSeconds(() -> true))
                .isInstanceOf(LockTimeoutException.class).hasMessageContaining("within 100ms");
    }

    @Test
    void aLeaseTimeOverrideReplacesTheWatchdog() throws Exception {
        Duration leaseInside = overridden.leased(() -> locks.getLock("leased").remainingLease());

        assertThat(leaseInside).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void theGlobalKeyAlsoWinsOverTheConfiguredDefaultWait() {
        assertThatThrownBy(() -> defaulted.run(() -> true))
                .isInstanceOf(LockTimeoutException.class).hasMessageContaining("within 100ms");
    }

    @ApplicationScoped
    static class Overridden {
        @Locked(value = "busy", waitTime = 5)
        public <T> T byMethodKey(Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked(value = "busy", waitTime = 5, unit = ChronoUnit.MILLIS)
        public <T> T inAnnotationUnit(Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked(value = "busy", waitTime = 5)
        public <T> T byClassKey(Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked("leased")
        public <T> T leased(Callable<T> inside) throws Exception {
            return inside.call();
        }
    }

    @ApplicationScoped
    static class Untouched {
        @Locked(value = "busy", waitTime = 5)
        public <T> T annotatedFiveSeconds(Callable<T> inside) throws Exception {
            return inside.call();
        }
    }

    @ApplicationScoped
    static class Defaulted {
        @Locked("busy")
        public <T> T run(Callable<T> inside) throws Exception {
            return inside.call();
        }
    }
}
