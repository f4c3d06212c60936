package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.LockInfo;
import dev.locksmith.LockManager;
import dev.locksmith.Locked;
import dev.locksmith.internal.cdi.LiteBeans;
import dev.locksmith.internal.cdi.LockedRuntime;
import dev.locksmith.internal.cdi.LocksmithExtension;
import dev.locksmith.internal.cdi.LocksmithLiteExtension;
import dev.locksmith.internal.config.Durations;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.CdiContainers.Registration;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.TestConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.build.compatible.spi.AnnotationBuilder;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.Enhancement;
import jakarta.enterprise.inject.build.compatible.spi.Messages;
import jakarta.enterprise.inject.build.compatible.spi.MethodConfig;
import jakarta.enterprise.inject.build.compatible.spi.Validation;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

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

    @ParameterizedTest
    @ValueSource(strings = {"%s/reserve/Locked/waitTime", "%s/Locked/waitTime", "Locked/waitTime"})
    void aBadRunTimeOverrideFailsALiteContainersStartupWithThePortableExtensionsMessage(String form) {
        String key = String.format(form, Reservations.class.getName());
        Throwable portable = portableStartFailure(key, "banana");

        Throwable lite = liteStartFailureAtRunTime(key, "banana");

        String expected = "@Locked(\"stock:{sku}\") on Reservations#reserve(String sku, int quantity): config key " + key
                + " = 'banana' is not a duration; write " + Durations.FORMS + ", a plain number in SECONDS, or -1 for"
                + " the default";
        assertThat(CdiContainers.messages(portable)).contains(expected);
        assertThat(lite).as("the Lite container's startup fails").isNotNull();
        StringWriter trace = new StringWriter();
        lite.printStackTrace(new PrintWriter(trace));
        assertThat(trace.toString()).as("failed by the check at startup, not by the build's")
                .contains(LiteBeans.RuntimeCreator.class.getName());
        assertThat(CdiContainers.messages(lite)).contains(expected);
    }

    @Test
    void twoBadRunTimeOverridesFailALiteContainersStartupNamingBoth() {
        String waitKey = Reservations.class.getName() + "/reserve/Locked/waitTime";
        String leaseKey = Reservations.class.getName() + "/release/Locked/leaseTime";

        Throwable portable = portableStartFailure(waitKey, "banana", leaseKey, "0");
        Throwable lite = liteStartFailureAtRunTime(waitKey, "banana", leaseKey, "0");

        for (String expected : List.of("config key " + waitKey + " = 'banana' is not a duration",
                "@Locked(\"stock:{sku}\") on Reservations#release(String sku): " + leaseKey
                        + " = '0' (in SECONDS, the annotation's unit) is not a lease")) {
            assertThat(CdiContainers.messages(portable)).contains(expected);
            assertThat(CdiContainers.messages(lite)).contains(expected);
        }
    }

    private static Throwable portableStartFailure(String... overrides) {
        try (TestConfig config = TestConfig.redis(redis.uri(), overrides)) {
            assertThat(config).isNotNull();
            return startFailure(CdiContainers.weld(Registration.PORTABLE, Reservations.class));
        }
    }

    /**
     * @return how a Lite container, whose build saw none of the overrides, fails to start with them
     */
    private static Throwable liteStartFailureAtRunTime(String... overrides) {
        try (TestConfig built = TestConfig.redis(redis.uri())) {
            assertThat(built).isNotNull();
            RunTimeConfiguration.set(TestConfig.properties(redis.uri(), overrides));
            return startFailure(CdiContainers.weld(Registration.LITE, Reservations.class)
                    .addBuildCompatibleExtensions(RunTimeConfiguration.class));
        } finally {
            RunTimeConfiguration.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Registration.class)
    void aLockedAddedByAnAnnotationTransformationIsInterceptedAndDescribedWhileHeld(Registration registration)
            throws Exception {
        try (TestConfig config = TestConfig.redis(redis.uri());
             WeldContainer container = CdiContainers.weld(registration, Transformed.class)
                     .addBuildCompatibleExtensions(AddsLocked.class).initialize()) {
            assertThat(config).isNotNull();
            Transformed transformed = container.select(Transformed.class).get();
            LockManager locks = container.select(LockManager.class).get();
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch leave = new CountDownLatch(1);
            ExecutorService thread = Executors.newSingleThreadExecutor();
            try {
                Future<Boolean> held = thread.submit(() -> transformed.hold("order-7", inside, leave));
                assertThat(inside.await(30, TimeUnit.SECONDS)).as("the call went in").isTrue();

                LockInfo described = locks.describe("transformed:order-7");
                leave.countDown();

                assertThat(described.holders()).as("%s", described).hasSize(1);
                assertThat(held.get(30, TimeUnit.SECONDS)).as("the call held its lock").isTrue();
            } finally {
                leave.countDown();
                thread.shutdownNow();
            }
            assertThat(locks.getLock("transformed:order-7").isLocked()).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(Registration.class)
    void aBadTemplateAddedByAnAnnotationTransformationFailsTheDeploymentWithTheSameMessage(Registration registration) {
        Throwable failure;
        try (TestConfig config = TestConfig.redis(redis.uri())) {
            assertThat(config).isNotNull();
            failure = startFailure(CdiContainers.weld(registration, TransformedBadTemplate.class)
                    .addBuildCompatibleExtensions(AddsLocked.class));
        }

        assertThat(failure).isInstanceOf(DeploymentException.class);
        assertThat(CdiContainers.messages(failure)).contains("@Locked(\"stock:{skuu}\") on"
                + " TransformedBadTemplate#reserve(String sku, int qty): no parameter named 'skuu'. Parameters: [sku, qty].");
    }

    private static Throwable startFailure(Registration registration) {
        try (TestConfig config = TestConfig.redis(redis.uri())) {
            assertThat(config).isNotNull();
            return startFailure(CdiContainers.weld(registration, BadTemplate.class));
        }
    }

    private static Throwable startFailure(Weld weld) {
        try (WeldContainer container = weld.initialize()) {
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
    static class Reservations {
        @Locked("stock:{sku}")
        public void reserve(String sku, int quantity) {
        }

        @Locked("stock:{sku}")
        public void release(String sku) {
        }
    }

    /**
     * Its {@code @Locked} comes from {@link AddsLocked}.
     */
    @ApplicationScoped
    static class Transformed {
        @Inject
        LockManager locks;

        public boolean hold(String order, CountDownLatch inside, CountDownLatch leave) throws InterruptedException {
            boolean held = locks.getLock("transformed:" + order).isHeldByCurrentThread();
            inside.countDown();
            return leave.await(30, TimeUnit.SECONDS) && held;
        }
    }

    /**
     * Its {@code @Locked}, from {@link AddsLocked}, names no parameter of the method.
     */
    @ApplicationScoped
    static class TransformedBadTemplate {
        public void reserve(String sku, int qty) {
        }
    }

    /**
     * Adds {@code @Locked} to methods that carry none in their source, the CDI Lite way.
     */
    public static class AddsLocked implements BuildCompatibleExtension {
        /**
         * @param method a method of a class to transform
         */
        @Enhancement(types = {Transformed.class, TransformedBadTemplate.class})
        public void addLocked(MethodConfig method) {
            switch (method.info().name()) {
                case "hold" -> method.addAnnotation(AnnotationBuilder.of(Locked.class).value("transformed:{order}").build());
                case "reserve" -> method.addAnnotation(AnnotationBuilder.of(Locked.class).value("stock:{skuu}").build());
                default -> {
                }
            }
        }
    }

    /**
     * Makes the configuration that the application starts with differ from the one Locksmith's
     * build compatible extension checked, as Quarkus's run-time configuration may differ from
     * its build's: after every other extension's validation, the test's run-time configuration
     * replaces the one registered.
     */
    public static class RunTimeConfiguration implements BuildCompatibleExtension {
        private static Map<String, String> runTime;
        private static TestConfig applied;

        static synchronized void set(Map<String, String> properties) {
            runTime = properties;
        }

        static synchronized void close() {
            if (applied != null) {
                applied.close();
            }
            applied = null;
            runTime = null;
        }

        /**
         * @param messages unused: nothing here is wrong
         */
        @Validation
        @Priority(Interceptor.Priority.LIBRARY_AFTER)
        public void startWithTheRunTimeConfiguration(Messages messages) {
            synchronized (RunTimeConfiguration.class) {
                applied = TestConfig.of(runTime);
            }
        }
    }

    @ApplicationScoped
    static class BadTemplate {
        @Locked("stock:{skuu}")
        public void reserve(String sku, int qty) {
        }
    }
}
