package dev.locksmith.testing;

import dev.locksmith.internal.cdi.LocksmithExtension;
import dev.locksmith.internal.cdi.LocksmithLiteExtension;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.Map;
import java.util.UUID;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Weld SE containers with the Locksmith extension, for tests that start several containers with
 * different configuration, or expect one to fail.
 *
 * <p>Which of Locksmith's two registrations the containers use is {@link Registration#current()}:
 * the portable extension unless {@code -Dlocksmith.test.cdi=lite} asks for the build compatible
 * one, as a CDI Lite container (Quarkus) runs it.
 */
public final class CdiContainers {
    private CdiContainers() {
    }

    /**
     * How Locksmith's CDI integration is added to a container.
     */
    public enum Registration {
        /** {@link LocksmithExtension}, as Jakarta EE servers run it. */
        PORTABLE,
        /** {@link LocksmithLiteExtension} alone, run by Weld's translator of build compatible extensions ({@link WeldLiteExtension}). */
        LITE;

        /**
         * @return the registration the system property {@code locksmith.test.cdi} names, portable by default
         */
        public static Registration current() {
            return "lite".equals(System.getProperty("locksmith.test.cdi")) ? LITE : PORTABLE;
        }
    }

    /**
     * @param beanClasses the application's beans
     * @return a container without discovery, with the Locksmith extension added as a container
     *         adds every extension listed in META-INF/services
     */
    public static Weld weld(Class<?>... beanClasses) {
        return weld(Registration.current(), beanClasses);
    }

    /**
     * @param registration which of Locksmith's extensions to add
     * @param beanClasses  the application's beans
     * @return a container without discovery, with that extension added as a container adds an
     *         extension listed in META-INF/services
     */
    @SuppressWarnings("unchecked") // one extension class, passed as varargs
    public static Weld weld(Registration registration, Class<?>... beanClasses) {
        Weld weld = new Weld(UUID.randomUUID().toString()).disableDiscovery();
        if (registration == Registration.LITE) {
            weld.addBuildCompatibleExtensions(WeldLiteExtension.class);
        } else {
            weld.addExtension(new LocksmithExtension());
        }
        return weld
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
