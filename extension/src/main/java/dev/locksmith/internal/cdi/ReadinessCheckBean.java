package dev.locksmith.internal.cdi;

import dev.locksmith.LockManager;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.BeanManager;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Readiness;

/**
 * Adds {@link RedisReadinessCheck} as a {@code @Readiness} bean. Kept apart from the extension
 * so that the MicroProfile Health API is loaded only on servers that have it.
 */
final class ReadinessCheckBean {
    private static final String HEALTH_API = "org.eclipse.microprofile.health.HealthCheck";

    private ReadinessCheckBean() {
    }

    /**
     * @return true if the application can see the MicroProfile Health API
     */
    static boolean healthApiPresent() {
        try {
            Class.forName(HEALTH_API, false, ReadinessCheckBean.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    static void add(AfterBeanDiscovery event, BeanManager beanManager, LockManagerLifecycle lifecycle) {
        event.<HealthCheck>addBean()
                .beanClass(RedisReadinessCheck.class)
                .types(HealthCheck.class, Object.class)
                .qualifiers(Readiness.Literal.INSTANCE, Any.Literal.INSTANCE)
                .scope(Dependent.class)
                .createWith(context -> new RedisReadinessCheck(() -> lockManager(beanManager), lifecycle));
    }

    private static LockManager lockManager(BeanManager beanManager) {
        var bean = beanManager.resolve(beanManager.getBeans(LockManager.class));
        return (LockManager) beanManager.getReference(bean, LockManager.class, beanManager.createCreationalContext(bean));
    }
}
