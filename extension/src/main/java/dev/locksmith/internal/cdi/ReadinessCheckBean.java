package dev.locksmith.internal.cdi;

import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.enterprise.inject.spi.PassivationCapable;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.Set;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Readiness;

/**
 * The {@code @Readiness} bean that makes {@link RedisReadinessCheck} visible to the server's
 * MicroProfile Health. Kept apart from the extension, and reached only once
 * {@link dev.locksmith.internal.classpath.OptionalApi#HEALTH} said the API is there: verifying
 * this class loads the MicroProfile Health API.
 *
 * <p>Its bean class is {@link Object}, not a class of Locksmith's jar. Weld puts a bean added with
 * {@link AfterBeanDiscovery#addBean(Bean)} in the bean archive of its bean class, and only code
 * whose archive can see that one finds it. Locksmith's jar holds a portable extension and no
 * {@code beans.xml}, so it is no bean archive: on WildFly its classes land in an archive that
 * only the deployment's own classes see, and the server's Health subsystem, a module of its own,
 * found no check there and reported its default {@code ready-<deployment>} instead. A class of the
 * JDK's bootstrap class loader puts the bean in the archive every other one sees, on WildFly,
 * Open Liberty and Payara alike. The Health API's own {@code HealthCheck} would not do: Open
 * Liberty wires archives by class loader parentage, and the application's loader is no child of
 * the one that loads the API there. (A bean made with {@code addBean().beanClass(..)} would still
 * land in the extension's archive.)
 */
final class ReadinessCheckBean implements Bean<HealthCheck>, PassivationCapable {
    private static final Set<Type> TYPES = Set.of(HealthCheck.class, Object.class);
    private static final Set<Annotation> QUALIFIERS = Set.of(Readiness.Literal.INSTANCE, Any.Literal.INSTANCE);

    private final LockManagerLifecycle lifecycle;

    private ReadinessCheckBean(LockManagerLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    static void add(AfterBeanDiscovery event, LockManagerLifecycle lifecycle) {
        event.addBean(new ReadinessCheckBean(lifecycle));
    }

    @Override
    public HealthCheck create(CreationalContext<HealthCheck> context) {
        return new RedisReadinessCheck(lifecycle);
    }

    @Override
    public void destroy(HealthCheck instance, CreationalContext<HealthCheck> context) {
        context.release();
    }

    @Override
    public Class<?> getBeanClass() {
        return Object.class;
    }

    @Override
    public Set<Type> getTypes() {
        return TYPES;
    }

    @Override
    public Set<Annotation> getQualifiers() {
        return QUALIFIERS;
    }

    @Override
    public Class<? extends Annotation> getScope() {
        return Dependent.class;
    }

    @Override
    public String getName() {
        return null;
    }

    @Override
    public Set<Class<? extends Annotation>> getStereotypes() {
        return Set.of();
    }

    @Override
    public boolean isAlternative() {
        return false;
    }

    @Override
    public Set<InjectionPoint> getInjectionPoints() {
        return Set.of();
    }

    @Override
    public String getId() {
        return "dev.locksmith.readiness." + RedisReadinessCheck.NAME;
    }

    @Override
    public String toString() {
        return "Locksmith's @Readiness HealthCheck " + RedisReadinessCheck.NAME;
    }
}
