package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.RedisConfigExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.util.Set;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code @Inject LockManager} in a CDI application configured through MicroProfile Config.
 */
@EnableWeld
class LockManagerBeanTest {
    @RegisterExtension
    @Order(1)
    static final RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    @Order(2)
    static final RedisConfigExtension config = new RedisConfigExtension(redis, "locksmith.key-prefix", "shop:");

    @WeldSetup
    WeldInitiator weld = WeldInitiator.from(CdiContainers.weld(Warehouse.class)).build();

    @Inject
    LockManager locks;

    @Inject
    Warehouse warehouse;

    @Inject
    BeanManager beanManager;

    @Test
    void injectedManagerLocksInTheConfiguredRedisWithTheConfiguredPrefix() {
        DistributedLock lock = locks.getLock("orders");

        lock.lock();
        try {
            assertThat(redis.keys("shop:{orders}")).containsExactly("shop:{orders}");
        } finally {
            lock.unlock();
        }

        assertThat(redis.keys("shop:{orders}")).isEmpty();
    }

    @Test
    void theManagerIsOneApplicationScopedBean() {
        Set<Bean<?>> beans = beanManager.getBeans(LockManager.class);

        assertThat(beans).hasSize(1);
        assertThat(beans.iterator().next().getScope()).isEqualTo(ApplicationScoped.class);
        warehouse.locks().getLock("shared").lock();
        assertThat(locks.getLock("shared").isHeldByCurrentThread()).as("same manager, same owner").isTrue();
        locks.getLock("shared").unlock();
    }

    @Test
    void stoppingTheApplicationClosesTheManagerAndFreesItsLocks() throws Exception {
        locks.getLock("held-at-shutdown").lock();

        weld.shutdown();

        try (LockManager other = Locksmith.builder().redisUri(redis.uri()).keyPrefix("shop:").build()) {
            assertThat(other.getLock("held-at-shutdown").isLocked()).isFalse();
        }
        assertThatThrownBy(() -> locks.getLock("after-shutdown")).isInstanceOf(RuntimeException.class);
    }

    @ApplicationScoped
    static class Warehouse {
        @Inject
        LockManager locks;

        LockManager locks() {
            return locks;
        }
    }
}
