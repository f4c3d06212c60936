package dev.locksmith.internal.cdi;

import dev.locksmith.internal.classpath.OptionalApi;
import dev.locksmith.LockManager;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Shutdown;
import jakarta.enterprise.event.Startup;
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
import jakarta.inject.Singleton;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
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
 *   <li>adds the {@code @ApplicationScoped} {@link LockManager} bean, made and connected when the
 *       application starts and closed when it stops, and the {@link LockedRuntime} the interceptors use;</li>
 *   <li>once the beans are known, reads the configuration and resolves every use, failing the
 *       deployment with a {@link DeploymentException} for each bad template, duration or override;
 *       with fenced uses, finds their data source and makes sure the fence table is there.</li>
 * </ul>
 *
 * <p>{@link LocksmithLiteExtension} does the same in CDI Lite containers (Quarkus), and steps aside
 * where this extension runs.
 *
 * <p>Not final: the container instantiates extensions through {@link java.util.ServiceLoader} and
 * may treat them like other beans.
 */
public class LocksmithExtension implements Extension {
    private static final Logger LOG = System.getLogger(LocksmithExtension.class.getName());

    // The container may fire ProcessManagedBean from several threads at once.
    private final Queue<LockedUse> uses = new ConcurrentLinkedQueue<>();
    private volatile LockedRuntime runtime;

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
            if (LockedUses.isBusinessMethod(javaMethod, method::isAnnotationPresent)) {
                LockedBinding.find(method.getAnnotations(), type.getAnnotations()).ifPresent(locked ->
                        uses.add(new LockedUse(type.getJavaClass(), javaMethod, locked)));
            }
        }
    }

    void addLockManager(@Observes AfterBeanDiscovery event, BeanManager beanManager) {
        LockManagerLifecycle managers = new LockManagerLifecycle(beanManager::createInstance);
        LockedRuntime locked = new LockedRuntime(managers, null);
        runtime = locked;
        event.<LockedRuntime>addBean()
                .types(LockedRuntime.class, Object.class)
                .scope(Singleton.class)
                .createWith(context -> locked);
        event.<LockManager>addBean()
                .types(LockManager.class, Object.class)
                .scope(ApplicationScoped.class)
                .createWith(context -> managers.manager())
                .destroyWith((manager, context) -> managers.destroy(manager));
        if (OptionalApi.HEALTH.isPresent()) {
            ReadinessCheckBean.add(event, managers);
        }
    }

    void validate(@Observes AfterDeploymentValidation event) {
        DeploymentCheck check = DeploymentCheck.of(uses, ConfigValues.ofApplication());
        uses.clear();
        check.problems().forEach(problem -> event.addDeploymentProblem(problem.exception()));
        runtime.resolved(check.methods());
        runtime.fencing().configure(check.fencing());
        if (!check.fenced().isEmpty() && check.fencing() != null && OptionalApi.JTA.isPresent()) {
            try {
                runtime.fencing().prepare(String.join("; ", check.fenced()));
            } catch (IllegalArgumentException e) {
                event.addDeploymentProblem(new DeploymentException(e.getMessage(), e));
            }
        }
        if (check.settings() != null) {
            runtime.lifecycle().configure(check.settings());
            LOG.log(Level.INFO, DeploymentCheck.startupLine(check.methods().size(), check.settings()));
            if (check.problems().isEmpty()) {
                try {
                    runtime.lifecycle().start();
                } catch (DeploymentException e) {
                    event.addDeploymentProblem(e);
                }
            }
        }
    }

    /**
     * Connects, if the deployment's validation did not already, before the application's own startup
     * observers run, so that neither they nor the first timer callback pay for the connection; see
     * {@link LockManagerLifecycle#start()}.
     */
    void connectAtStartup(@Observes @Priority(jakarta.interceptor.Interceptor.Priority.PLATFORM_BEFORE) Startup event) {
        runtime.lifecycle().start();
    }

    void closeAtShutdown(@Observes @Priority(jakarta.interceptor.Interceptor.Priority.PLATFORM_AFTER) Shutdown event) {
        runtime.lifecycle().stop();
    }
}
