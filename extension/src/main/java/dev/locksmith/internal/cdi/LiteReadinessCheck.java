package dev.locksmith.internal.cdi;

import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.build.compatible.spi.Parameters;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanCreator;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Readiness;

/**
 * Adds {@link RedisReadinessCheck} as a {@code @Readiness} bean in a CDI Lite container (the
 * build compatible extension's counterpart of {@link ReadinessCheckBean}). Reached only once
 * {@link dev.locksmith.internal.classpath.OptionalApi#HEALTH} said the API is there: verifying
 * this class loads the MicroProfile Health API.
 *
 * <p>Public, with a public nested class, because a CDI Lite container's generated code
 * instantiates {@link Creator}.
 */
public final class LiteReadinessCheck {
    private LiteReadinessCheck() {
    }

    static void add(SyntheticComponents components) {
        components.addBean(HealthCheck.class)
                .type(HealthCheck.class)
                .qualifier(Readiness.Literal.INSTANCE)
                .scope(Dependent.class)
                .createWith(Creator.class);
    }

    /**
     * Makes the readiness check in a CDI Lite container.
     */
    public static final class Creator implements SyntheticBeanCreator<HealthCheck> {
        @Override
        public HealthCheck create(Instance<Object> lookup, Parameters params) {
            return new RedisReadinessCheck(lookup.select(LockedRuntime.class).get().lifecycle());
        }
    }
}
