package dev.locksmith.internal.cdi;

import dev.locksmith.internal.classpath.OptionalApi;
import jakarta.enterprise.inject.spi.BeanManager;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * What the container knows about the application that Locksmith tells operators: its name
 * ({@code java:app/AppName}), and its {@code OpenTelemetry} bean where MicroProfile Telemetry
 * provides one. Neither is required.
 */
final class ApplicationIdentity {
    private static final String OPENTELEMETRY = "io.opentelemetry.api.OpenTelemetry";

    private ApplicationIdentity() {
    }

    /**
     * @param configured {@code locksmith.application-name}, or "" to ask the container
     * @return the application's name, or null when nobody knows it
     */
    static String applicationName(String configured) {
        if (!configured.isEmpty()) {
            return configured;
        }
        try {
            InitialContext context = new InitialContext();
            try {
                return context.lookup("java:app/AppName") instanceof String name ? name : null;
            } finally {
                context.close();
            }
        } catch (NamingException | RuntimeException e) {
            return null;
        }
    }

    /**
     * @return the application's {@code io.opentelemetry.api.OpenTelemetry} bean, or null when the
     *         API or the bean is missing
     */
    static Object openTelemetry(BeanManager beanManager) {
        if (!OptionalApi.OPENTELEMETRY.isPresent()) {
            return null;
        }
        try {
            Class<?> type = Class.forName(OPENTELEMETRY, false, ApplicationIdentity.class.getClassLoader());
            return ContainerBeans.find(beanManager, type);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}
