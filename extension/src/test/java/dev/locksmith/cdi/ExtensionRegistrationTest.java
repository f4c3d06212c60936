package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.LockManager;
import dev.locksmith.Locked;
import dev.locksmith.internal.cdi.LockedInterceptor;
import dev.locksmith.internal.cdi.LocksmithExtension;
import dev.locksmith.testing.InMemoryNaming;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.TestConfig;
import dev.locksmith.testing.Transactions;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.interceptor.Interceptor;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a user gets by adding the jar: the extension is found through
 * {@code META-INF/services}, with no {@code beans.xml} entry and no code.
 */
class ExtensionRegistrationTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void theExtensionIsListedForTheServiceLoader() {
        assertThat(ServiceLoader.load(Extension.class).stream().map(ServiceLoader.Provider::type))
                .contains(LocksmithExtension.class);
    }

    @Test
    void aContainerThatLoadsItsExtensionsItselfOffersLockManagerAndLocked() throws Exception {
        Transactions.bindInJndi();
        try (TestConfig config = TestConfig.redis(redis.uri());
             WeldContainer container = new Weld(UUID.randomUUID().toString())
                     .addBeanClass(Greeter.class)
                     .initialize()) {
            assertThat(config).isNotNull();
            Greeter greeter = container.select(Greeter.class).get();
            LockManager locks = container.select(LockManager.class).get();

            boolean held = greeter.greet(() -> locks.getLock("greeting").isHeldByCurrentThread());

            assertThat(held).isTrue();
        } finally {
            InMemoryNaming.clear();
        }
    }

    @Test
    void theInterceptorRunsOutsideTransactionalAndInsideConcurrencysAsynchronous() {
        int transactional = Interceptor.Priority.PLATFORM_BEFORE + 200;

        int priority = LockedInterceptor.class.getAnnotation(Priority.class).value();

        assertThat(priority).isEqualTo(LockedInterceptor.PRIORITY)
                .isEqualTo(Interceptor.Priority.PLATFORM_BEFORE + 100)
                .isLessThan(transactional);
    }

    @ApplicationScoped
    static class Greeter {
        @Locked("greeting")
        public <T> T greet(Callable<T> inside) throws Exception {
            return inside.call();
        }
    }
}
