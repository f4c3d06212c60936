package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.LockManager;
import dev.locksmith.Locked;
import dev.locksmith.internal.cdi.LockedRuntime;
import dev.locksmith.internal.cdi.LocksmithExtension;
import dev.locksmith.internal.cdi.LocksmithLiteExtension;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.CdiContainers.Registration;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.TestConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Locksmith in a container that runs only build compatible extensions, as Quarkus's ArC does:
 * here Weld SE with {@link LocksmithLiteExtension} alone, through Weld's translator. The whole
 * CDI suite runs this way with {@code -Dlocksmith.test.cdi=lite}.
 */
class BuildCompatibleExtensionTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void theBuildCompatibleExtensionIsListedForCdiLiteContainers() {
        assertThat(ServiceLoader.load(BuildCompatibleExtension.class).stream().map(ServiceLoader.Provider::type))
                .contains(LocksmithLiteExtension.class);
    }

    @Test
    void eightThreadsInALockedMethodOfALiteContainerNeverOverlapNorLoseAnUpdate() throws Exception {
        try (TestConfig config = TestConfig.redis(redis.uri());
             WeldContainer container = CdiContainers.weld(Registration.LITE, Counter.class).initialize()) {
            assertThat(config).isNotNull();
            Counter counter = container.select(Counter.class).get();
            ExecutorService threads = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> calls = new ArrayList<>();
                for (int i = 0; i < 8 * 25; i++) {
                    calls.add(threads.submit(counter::increment));
                }
                for (Future<?> call : calls) {
                    call.get(60, TimeUnit.SECONDS);
                }
            } finally {
                threads.shutdownNow();
            }

            assertThat(counter.mostInsideAtOnce()).as("threads inside the locked method at once").isEqualTo(1);
            assertThat(counter.value()).as("no lost update").isEqualTo(200);
            assertThat(counter.locks().getLock("counter").isLocked()).isFalse();
        }
    }

    @Test
    void aBadTemplateFailsALiteContainerWithThePortableExtensionsMessage() {
        Throwable portable = startFailure(Registration.PORTABLE);
        Throwable lite = startFailure(Registration.LITE);

        assertThat(lite).isInstanceOf(DeploymentException.class);
        String expected = "@Locked(\"stock:{skuu}\") on BadTemplate#reserve(String sku, int qty): no parameter named"
                + " 'skuu'. Parameters: [sku, qty]. Compile with -parameters, or use {0}.";
        assertThat(CdiContainers.messages(portable)).contains(expected);
        assertThat(CdiContainers.messages(lite)).contains(expected);
    }

    @Test
    @SuppressWarnings("unchecked") // one extension class, passed as varargs
    void whereThePortableExtensionRunsTheBuildCompatibleOneStepsAside() throws Exception {
        try (TestConfig config = TestConfig.redis(redis.uri());
             WeldContainer container = new Weld(UUID.randomUUID().toString()).disableDiscovery()
                     .addExtension(new LocksmithExtension())
                     .addBuildCompatibleExtensions(LocksmithLiteExtension.class)
                     .addBeanClasses(Counter.class).initialize()) {
            assertThat(config).isNotNull();
            BeanManager beans = container.getBeanManager();

            container.select(Counter.class).get().increment();

            assertThat(beans.getBeans(LockManager.class)).hasSize(1);
            assertThat(beans.getBeans(LockedRuntime.class)).hasSize(1);
        }
    }

    private static Throwable startFailure(Registration registration) {
        try (TestConfig config = TestConfig.redis(redis.uri());
             WeldContainer container = CdiContainers.weld(registration, BadTemplate.class).initialize()) {
            assertThat(container).isNotNull();
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    @ApplicationScoped
    static class Counter {
        @Inject
        LockManager locks;

        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicInteger most = new AtomicInteger();
        private int value;

        @Locked("counter")
        public void increment() {
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            int read = value;
            Thread.yield();
            value = read + 1;
            inside.decrementAndGet();
        }

        int value() {
            return value;
        }

        int mostInsideAtOnce() {
            return most.get();
        }

        LockManager locks() {
            return locks;
        }
    }

    @ApplicationScoped
    static class BadTemplate {
        @Locked("stock:{skuu}")
        public void reserve(String sku, int qty) {
        }
    }
}
