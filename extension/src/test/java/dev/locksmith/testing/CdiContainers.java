package dev.locksmith.testing;

import dev.locksmith.internal.cdi.LocksmithExtension;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.Map;
import java.util.UUID;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Weld SE containers with the Locksmith extension, for tests that start several containers with
 * different configuration, or expect one to fail.
 */
public final class CdiContainers {
    private CdiContainers() {
    }

    /**
     * @param beanClasses the application's beans
     * @return a container without discovery, with the Locksmith extension added as a container
     *         adds every extension listed in META-INF/services
     */
    public static Weld weld(Class<?>... beanClasses) {
        return new Weld(UUID.randomUUID().toString())
                .disableDiscovery()
                .addExtension(new LocksmithExtension())
                .addBeanClasses(beanClasses)
                // Weld SE refuses to start without a single bean class.
                .addBeanClass(EmptyApplication.class);
    }

    /**
     * @param config      the application's MicroProfile Config
     * @param beanClasses the application's beans
     * @return the started application; close it
     */
    public static Application start(Map<String, String> config, Class<?>... beanClasses) {
        TestConfig registered = TestConfig.of(config);
        try {
            return new Application(registered, weld(beanClasses).initialize());
        } catch (RuntimeException e) {
            registered.close();
            throw e;
        }
    }

    /**
     * @param config      the application's MicroProfile Config
     * @param beanClasses the application's beans
     * @return what starting the container threw, or null if it started
     */
    public static Throwable startFailure(Map<String, String> config, Class<?>... beanClasses) {
        try (Application ignored = start(config, beanClasses)) {
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    /**
     * @param failure what a container threw
     * @return its message and the messages of its causes, one per line
     */
    public static String messages(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            text.append(t.getMessage()).append('\n');
        }
        return text.toString();
    }

    /**
     * A running container and the configuration registered for it.
     */
    public static final class Application implements AutoCloseable {
        private final TestConfig config;
        private final WeldContainer container;

        private Application(TestConfig config, WeldContainer container) {
            this.config = config;
            this.container = container;
        }

        /**
         * @return the one bean of that type
         */
        public <T> T get(Class<T> type) {
            return container.select(type).get();
        }

        /**
         * @return the container's bean manager
         */
        public BeanManager beanManager() {
            return container.getBeanManager();
        }

        @Override
        public void close() {
            try {
                container.close();
            } finally {
                config.close();
            }
        }
    }

    /**
     * Stands for an application with no beans of its own.
     */
    static final class EmptyApplication {
    }
}
