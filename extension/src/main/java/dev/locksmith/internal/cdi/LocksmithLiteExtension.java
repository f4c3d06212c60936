package dev.locksmith.internal.cdi;

import dev.locksmith.internal.classpath.OptionalApi;
import jakarta.enterprise.inject.build.compatible.spi.BeanInfo;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.Discovery;
import jakarta.enterprise.inject.build.compatible.spi.Messages;
import jakarta.enterprise.inject.build.compatible.spi.Registration;
import jakarta.enterprise.inject.build.compatible.spi.ScannedClasses;
import jakarta.enterprise.inject.build.compatible.spi.SkipIfPortableExtensionPresent;
import jakarta.enterprise.inject.build.compatible.spi.Synthesis;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.enterprise.inject.build.compatible.spi.Validation;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code @Inject LockManager} and {@code @Locked} in a CDI Lite container, such as Quarkus's ArC,
 * which never runs portable extensions. Registered in
 * {@code META-INF/services/jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension}.
 * It does what {@link LocksmithExtension} does, with the same classes and the same messages:
 *
 * <ul>
 *   <li>adds the {@link LockedInterceptor} and {@link LockedTransactionGuard};</li>
 *   <li>notes every business method of a managed bean that {@code @Locked} applies to, as the
 *       container's annotation model shows it, so a {@code @Locked} that an annotation
 *       transformation added counts ({@link LockedModel});</li>
 *   <li>adds the {@link LockedRuntime}, the {@code LockManager} bean and, where MicroProfile Health
 *       is on the class path, the readiness check ({@link LiteBeans}, {@link LiteReadinessCheck});</li>
 *   <li>checks the settings and every use when the application is built (Quarkus) or deployed,
 *       failing it with the same message the portable extension gives; both are checked again at
 *       startup, with the configuration the application runs with, which may differ.</li>
 * </ul>
 *
 * <p>A CDI Full container (Weld) runs build compatible extensions too; there the portable
 * extension does the work, and this one steps aside.
 */
@SkipIfPortableExtensionPresent(LocksmithExtension.class)
public class LocksmithLiteExtension implements BuildCompatibleExtension {
    private final List<LockedModel.Declared> uses = new ArrayList<>();

    /**
     * @param classes where the interceptors are added
     */
    @Discovery
    public void addInterceptors(ScannedClasses classes) {
        classes.add(LockedInterceptor.class.getName());
        classes.add(LockedTransactionGuard.class.getName());
    }

    /**
     * @param bean any bean of the application
     */
    @Registration(types = Object.class)
    public void noteLockedMethods(BeanInfo bean) {
        if (bean.isClassBean() && !bean.isInterceptor()) {
            uses.addAll(LockedModel.uses(bean.declaringClass()));
        }
    }

    /**
     * @param components where the beans are added
     */
    @Synthesis
    public void addBeans(SyntheticComponents components) {
        LiteBeans.add(components, uses, uses.stream().filter(use -> LockedValues.of(use.locked()).fenced())
                .map(use -> "@Locked(fenced = true) on " + use.beanClass().simpleName() + "#" + use.method())
                .collect(Collectors.joining("; ")));
        if (OptionalApi.HEALTH.isPresent()) {
            LiteReadinessCheck.add(components);
        }
    }

    /**
     * @param messages where each bad setting or use is reported, failing the build or deployment
     */
    @Validation
    public void validate(Messages messages) {
        // Only classes with a @Locked use are loaded: a container also has beans whose classes it
        // generates later in the build, which cannot be loaded yet.
        List<LockedUse> loaded = uses.stream().map(use -> use.load(LocksmithLiteExtension::load)).toList();
        DeploymentCheck check = DeploymentCheck.of(loaded, ConfigValues.ofApplication());
        check.problems().forEach(problem -> messages.error(problem.message()));
    }

    private static Class<?> load(String name) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try {
            return Class.forName(name, false, loader != null ? loader : LocksmithLiteExtension.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("Locksmith cannot read the bean class " + name + " to check its @Locked"
                    + " methods: " + e, e);
        }
    }
}
