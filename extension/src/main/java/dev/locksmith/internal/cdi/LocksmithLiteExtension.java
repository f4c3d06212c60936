package dev.locksmith.internal.cdi;

import dev.locksmith.Locked;
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
import jakarta.enterprise.lang.model.AnnotationInfo;
import jakarta.enterprise.lang.model.declarations.ClassInfo;
import jakarta.enterprise.lang.model.declarations.MethodInfo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code @Inject LockManager} and {@code @Locked} in a CDI Lite container, such as Quarkus's ArC,
 * which never runs portable extensions. Registered in
 * {@code META-INF/services/jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension}.
 * It does what {@link LocksmithExtension} does, with the same classes and the same messages:
 *
 * <ul>
 *   <li>adds the {@link LockedInterceptor} and {@link LockedTransactionGuard};</li>
 *   <li>notes every business method of a managed bean that {@code @Locked} applies to;</li>
 *   <li>adds the {@link LockedRuntime}, the {@code LockManager} bean and, where MicroProfile Health
 *       is on the class path, the readiness check ({@link LiteBeans}, {@link LiteReadinessCheck});</li>
 *   <li>checks the settings and every use when the application is built (Quarkus) or deployed,
 *       failing it with the same message the portable extension gives; the settings are read and
 *       checked again at startup, where run-time configuration may differ.</li>
 * </ul>
 *
 * <p>A CDI Full container (Weld) runs build compatible extensions too; there the portable
 * extension does the work, and this one steps aside.
 */
@SkipIfPortableExtensionPresent(LocksmithExtension.class)
public class LocksmithLiteExtension implements BuildCompatibleExtension {
    private final List<LockedUse> uses = new ArrayList<>();

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
        // Only classes that mention @Locked are loaded: a container also has beans whose classes it
        // generates later in the build, which cannot be loaded yet.
        if (bean.isClassBean() && !bean.isInterceptor() && mentionsLocked(bean.declaringClass())) {
            uses.addAll(LockedUses.of(load(bean.declaringClass().name())));
        }
    }

    /**
     * @param components where the beans are added
     */
    @Synthesis
    public void addBeans(SyntheticComponents components) {
        LiteBeans.add(components, uses.size(), uses.stream().filter(use -> use.locked().fenced())
                .map(use -> "@Locked(fenced = true) on " + use.beanClass().getSimpleName() + "#" + use.method().getName())
                .collect(java.util.stream.Collectors.joining("; ")));
        if (OptionalApi.HEALTH.isPresent()) {
            LiteReadinessCheck.add(components);
        }
    }

    /**
     * @param messages where each bad setting or use is reported, failing the build or deployment
     */
    @Validation
    public void validate(Messages messages) {
        DeploymentCheck check = DeploymentCheck.of(uses, ConfigValues.ofApplication());
        check.problems().forEach(problem -> messages.error(problem.message()));
    }

    private static boolean mentionsLocked(ClassInfo beanClass) {
        for (ClassInfo type = beanClass; type != null && !type.name().equals(Object.class.getName());
                type = type.superClassDeclaration()) {
            if (carryLocked(type.annotations(), new HashSet<>())) {
                return true;
            }
            for (MethodInfo method : type.methods()) {
                if (carryLocked(method.annotations(), new HashSet<>())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @return whether one of the annotations is {@code @Locked}, or a stereotype or interceptor
     *         binding that carries it
     */
    private static boolean carryLocked(Collection<AnnotationInfo> annotations, Set<String> seen) {
        for (AnnotationInfo annotation : annotations) {
            String name = annotation.name();
            if (name.equals(Locked.class.getName())) {
                return true;
            }
            if (!name.startsWith("java.") && !name.startsWith("jakarta.") && seen.add(name)
                    && carryLocked(annotation.declaration().annotations(), seen)) {
                return true;
            }
        }
        return false;
    }

    private static Class<?> load(String name) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try {
            return Class.forName(name, false, loader != null ? loader : LocksmithLiteExtension.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("Locksmith cannot read the bean class " + name + " to find its @Locked"
                    + " methods: " + e, e);
        }
    }
}
