package dev.locksmith.internal.cdi;

import dev.locksmith.internal.classpath.OptionalApi;
import dev.locksmith.internal.config.Durations;
import dev.locksmith.LockManager;
import dev.locksmith.Locked;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Decorator;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.Interceptor;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import jakarta.inject.Inject;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The portable extension behind {@code @Inject LockManager} and {@code @Locked}, registered in
 * {@code META-INF/services/jakarta.enterprise.inject.spi.Extension} so an application needs no
 * {@code beans.xml} entry for it.
 *
 * <ul>
 *   <li>adds the {@link LockedInterceptor}, enabled for the whole application by its priority;</li>
 *   <li>notes every business method that {@code @Locked} applies to, on CDI beans and session beans;</li>
 *   <li>adds the {@code @ApplicationScoped} {@link LockManager} bean, closed when the application stops;</li>
 *   <li>once the beans are known, reads the configuration and resolves every use, failing the
 *       deployment with a {@link DeploymentException} for each bad template, duration or override.</li>
 * </ul>
 *
 * <p>Not final: the container instantiates extensions through {@link java.util.ServiceLoader} and
 * may treat them like other beans.
 */
public class LocksmithExtension implements Extension {
    private static final Logger LOG = System.getLogger(LocksmithExtension.class.getName());

    // The container may fire ProcessManagedBean from several threads at once.
    private final Queue<LockedUse> uses = new ConcurrentLinkedQueue<>();
    private volatile LockManagerLifecycle lifecycle;
    private volatile LockedMethods lockedMethods;

    void addInterceptor(@Observes BeforeBeanDiscovery event, BeanManager beanManager) {
        event.addAnnotatedType(beanManager.createAnnotatedType(LockedInterceptor.class), LockedInterceptor.class.getName());
        event.addAnnotatedType(beanManager.createAnnotatedType(LockedTransactionGuard.class),
                LockedTransactionGuard.class.getName());
    }

    <T> void noteLockedMethods(@Observes ProcessManagedBean<T> event) {
        AnnotatedType<T> type = event.getAnnotatedBeanClass();
        if (event.getBean() instanceof Interceptor || event.getBean() instanceof Decorator
                || type.isAnnotationPresent(jakarta.interceptor.Interceptor.class)) {
            return;
        }
        for (AnnotatedMethod<? super T> method : type.getMethods()) {
            Method javaMethod = method.getJavaMember();
            int modifiers = javaMethod.getModifiers();
            if (Modifier.isStatic(modifiers) || Modifier.isPrivate(modifiers) || javaMethod.isBridge()
                    || javaMethod.isSynthetic() || javaMethod.getDeclaringClass() == Object.class
                    || isCalledByTheContainerOnly(method)) {
                continue;
            }
            LockedBinding.find(method.getAnnotations(), type.getAnnotations()).ifPresent(locked ->
                    uses.add(new LockedUse(type.getJavaClass(), javaMethod, locked)));
        }
    }

    /**
     * Life-cycle callbacks and initializer methods are not business methods: no interceptor
     * binding applies to them, so a type-level template need not fit them.
     */
    private static boolean isCalledByTheContainerOnly(AnnotatedMethod<?> method) {
        return method.isAnnotationPresent(PostConstruct.class) || method.isAnnotationPresent(PreDestroy.class)
                || method.isAnnotationPresent(Inject.class);
    }

    void addLockManager(@Observes AfterBeanDiscovery event, BeanManager beanManager) {
        LockManagerLifecycle managers = new LockManagerLifecycle(beanManager);
        lifecycle = managers;
        event.<LockManager>addBean()
                .types(LockManager.class, Object.class)
                .scope(ApplicationScoped.class)
                .createWith(context -> managers.create())
                .destroyWith((manager, context) -> managers.destroy(manager));
        if (OptionalApi.HEALTH.isPresent()) {
            ReadinessCheckBean.add(event, beanManager, managers);
        }
    }

    void validate(@Observes AfterDeploymentValidation event) {
        ConfigValues values = ConfigValues.ofApplication();
        LocksmithSettings settings = null;
        try {
            settings = LocksmithSettings.read(values);
            lifecycle.configure(settings);
        } catch (IllegalArgumentException e) {
            event.addDeploymentProblem(new DeploymentException("Locksmith configuration: " + e.getMessage(), e));
        }
        var defaultWait = settings != null ? settings.waitTime() : Durations.parse(ConfigKey.WAIT_TIME.defaultValue());
        LockedMethods methods = new LockedMethods((beanClass, method) -> LockedOperation.resolve(beanClass, method,
                LockedMethods.bindingOf(beanClass, method), values, defaultWait));
        for (LockedUse use : uses) {
            try {
                methods.add(use.beanClass(), use.method(),
                        LockedOperation.resolve(use.beanClass(), use.method(), use.locked(), values, defaultWait));
            } catch (IllegalArgumentException e) {
                event.addDeploymentProblem(new DeploymentException(e.getMessage(), e));
            }
        }
        uses.clear();
        lockedMethods = methods;
        if (settings != null) {
            LOG.log(Level.INFO, "Locksmith: " + methods.size() + " @Locked method(s) checked; Redis at "
                    + settings.redactedUri() + " (" + settings.mode() + "), connected on first use; "
                    + OptionalFeatures.describe());
        }
    }

    /**
     * @return every {@code @Locked} method, resolved at startup
     */
    LockedMethods lockedMethods() {
        return lockedMethods;
    }

    /**
     * @return the life cycle of the {@link LockManager} bean
     */
    LockManagerLifecycle lifecycle() {
        return lifecycle;
    }

    private record LockedUse(Class<?> beanClass, Method method, Locked locked) {
    }
}
