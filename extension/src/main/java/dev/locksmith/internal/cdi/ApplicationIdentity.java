package dev.locksmith.internal.cdi;

import dev.locksmith.internal.classpath.Jndi;
import dev.locksmith.internal.classpath.OptionalApi;
import jakarta.enterprise.inject.Instance;

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
        return Jndi.lookup("java:app/AppName") instanceof String name ? name : null;
    }

    /**
     * @param beans the application's beans
     * @return the application's {@code io.opentelemetry.api.OpenTelemetry} bean, or null when the
     *         API or the bean is missing
     */
    static Object openTelemetry(Instance<Object> beans) {
        Class<?> type = OptionalApi.OPENTELEMETRY.type(OPENTELEMETRY);
        return type == null ? null : ContainerBeans.find(beans, type);
    }
}
