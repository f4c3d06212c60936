package dev.locksmith.internal.cdi;

import dev.locksmith.LockManager;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.build.compatible.spi.Parameters;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanCreator;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.BeanManager;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Readiness;

/**
 * Adds {@link RedisReadinessCheck} as a {@code @Readiness} bean. Kept apart from the extension,
 * and reached only once {@link dev.locksmith.internal.classpath.OptionalApi#HEALTH} said the API
 * is there: verifying this class loads the MicroProfile Health API. Both registrations of
 * Locksmith use it: the portable extension and, in CDI Lite, the build compatible one.
 *
 * <p>Public, with a public nested class, because a CDI Lite container's generated code
 * instantiates {@link LiteCreator}.
 */
public final class ReadinessCheckBean {
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

    static void add(SyntheticComponents components) {
        components.addBean(HealthCheck.class)
                .type(HealthCheck.class)
                .qualifier(Readiness.Literal.INSTANCE)
                .scope(Dependent.class)
                .createWith(LiteCreator.class);
    }

    /**
     * Makes the readiness check in a CDI Lite container.
     */
    public static final class LiteCreator implements SyntheticBeanCreator<HealthCheck> {
        @Override
        public HealthCheck create(Instance<Object> lookup, Parameters params) {
            return new RedisReadinessCheck(() -> lookup.select(LockManager.class).get(),
                    lookup.select(LockedRuntime.class).get().lifecycle());
        }
    }

    private static LockManager lockManager(BeanManager beanManager) {
        var bean = beanManager.resolve(beanManager.getBeans(LockManager.class));
        return (LockManager) beanManager.getReference(bean, LockManager.class, beanManager.createCreationalContext(bean));
    }
}
