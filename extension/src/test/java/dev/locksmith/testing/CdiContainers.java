package dev.locksmith.testing;

import dev.locksmith.internal.cdi.LocksmithExtension;
import java.util.UUID;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Weld SE containers with the Locksmith extension, for tests that start several containers or
 * expect one to fail.
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
     * Stands for an application with no beans of its own.
     */
    static final class EmptyApplication {
    }

    /**
     * @param beanClasses the application's beans
     * @return the started container; close it
     */
    public static WeldContainer start(Class<?>... beanClasses) {
        return weld(beanClasses).initialize();
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
}
