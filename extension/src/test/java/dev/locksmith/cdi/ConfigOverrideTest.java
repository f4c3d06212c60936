package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.Locked;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.RedisConfigExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
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
    @Order(1)
    static final RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    @Order(2)
    static final RedisConfigExtension config = new RedisConfigExtension(redis,
            Overridden.class.getName() + "/byMethodKey/Locked/waitTime", "PT0.3S",
            Overridden.class.getName() + "/inAnnotationUnit/Locked/waitTime", "150",
            Overridden.class.getName() + "/Locked/waitTime", "200ms",
            Overridden.class.getName() + "/leased/Locked/leaseTime", "2s",
            "Locked/waitTime", "100ms",
            "locksmith.wait-time", "250ms");

    @WeldSetup
    WeldInitiator weld = WeldInitiator.from(CdiContainers.weld(Overridden.class, Untouched.class, Defaulted.class))
            .build();

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
