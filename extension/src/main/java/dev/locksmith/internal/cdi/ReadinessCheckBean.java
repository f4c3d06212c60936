package dev.locksmith.internal.cdi;

import dev.locksmith.LockManager;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.BeanManager;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Readiness;

/**
 * Adds {@link RedisReadinessCheck} as a {@code @Readiness} bean. Kept apart from the extension,
 * and reached only once {@link dev.locksmith.internal.classpath.OptionalApi#HEALTH} said the API
 * is there: verifying this class loads the MicroProfile Health API.
 */
final class ReadinessCheckBean {
    private ReadinessCheckBean() {
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
