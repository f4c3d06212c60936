package dev.locksmith.internal.cdi;

import dev.locksmith.LockManager;
import dev.locksmith.Locked;
import dev.locksmith.internal.classpath.OptionalApi;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Shutdown;
import jakarta.enterprise.event.Startup;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.build.compatible.spi.Parameters;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanCreator;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanDisposer;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticObserver;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.EventContext;
import jakarta.enterprise.lang.model.AnnotationInfo;
import jakarta.enterprise.lang.model.declarations.ClassInfo;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;

/**
 * How a CDI Lite container makes and ends Locksmith's beans at run time, where no extension
 * instance exists: each bean is made by a class the container instantiates itself, from
 * configuration read at startup. Public, with public nested classes, because the container's
 * generated code instantiates them.
 */
public final class LiteBeans {
    private static final Logger LOG = System.getLogger(LocksmithLiteExtension.class.getName());
    // The @Locked uses the build found, one array element each, for the check at startup.
    private static final String BEAN_CLASSES = "beanClasses";
    private static final String DECLARING_CLASSES = "declaringClasses";
    private static final String METHODS = "methods";
    private static final String PARAMETER_TYPES = "parameterTypes";
    private static final String BINDINGS = "bindings";
    private static final String FENCED_USES = "fencedUses";

    private LiteBeans() {
    }

    /**
     * @param components where the beans are added
     * @param uses       every {@code @Locked} use the container's model shows, checked again at startup
     * @param fencedUses the uses annotated {@code fenced = true}, for messages; empty when none is
     */
    static void add(SyntheticComponents components, List<LockedModel.Declared> uses, String fencedUses) {
        components.addBean(LockedRuntime.class)
                .type(LockedRuntime.class)
                .scope(Singleton.class)
                .withParam(BEAN_CLASSES, uses.stream().map(LockedModel.Declared::beanClass).toArray(ClassInfo[]::new))
                .withParam(DECLARING_CLASSES,
                        uses.stream().map(LockedModel.Declared::declaringClass).toArray(ClassInfo[]::new))
                .withParam(METHODS, uses.stream().map(LockedModel.Declared::method).toArray(String[]::new))
                .withParam(PARAMETER_TYPES, uses.stream().map(use -> String.join(",", use.parameterTypes()))
                        .toArray(String[]::new))
                .withParam(BINDINGS, uses.stream().map(LockedModel.Declared::locked).toArray(AnnotationInfo[]::new))
                .createWith(RuntimeCreator.class);
        components.addBean(LockManager.class)
                .type(LockManager.class)
                .scope(ApplicationScoped.class)
                .createWith(ManagerCreator.class)
                .disposeWith(ManagerDisposer.class);
        components.addObserver(Startup.class)
                .declaringClass(LiteBeans.class)
                // Before the application's own startup observers: they may lock, and must not pay for the connect.
                .priority(Interceptor.Priority.PLATFORM_BEFORE)
                .withParam(FENCED_USES, fencedUses)
                .observeWith(StartupCheck.class);
        components.addObserver(Shutdown.class)
                .declaringClass(LiteBeans.class)
                .priority(Interceptor.Priority.PLATFORM_AFTER)
                .observeWith(ShutdownClose.class);
    }

    /**
     * Reads the run-time configuration, checks the settings and every {@code @Locked} use against
     * it as the portable extension does at deployment, fails startup on a bad one, and logs the
     * startup line.
     */
    public static final class RuntimeCreator implements SyntheticBeanCreator<LockedRuntime> {
        @Override
        public LockedRuntime create(Instance<Object> lookup, Parameters params) {
            DeploymentCheck check = DeploymentCheck.of(uses(params), ConfigValues.ofApplication());
            check.failOnProblems();
            LockManagerLifecycle lifecycle = new LockManagerLifecycle(() -> lookup);
            lifecycle.configure(check.settings());
            LockedRuntime runtime = new LockedRuntime(lifecycle, check.methods());
            // The data source and the table are found at startup (StartupCheck): a build step has no database.
            runtime.fencing().configure(check.fencing());
            LOG.log(Level.INFO, DeploymentCheck.startupLine(check.methods().size(), check.settings()));
            return runtime;
        }

        private static List<LockedUse> uses(Parameters params) {
            // Arrays of the parameters' element types, not Locked[]: the container makes the arrays.
            Class<?>[] beanClasses = params.get(BEAN_CLASSES, Class[].class);
            Class<?>[] declaringClasses = params.get(DECLARING_CLASSES, Class[].class);
            String[] methods = params.get(METHODS, String[].class);
            String[] parameterTypes = params.get(PARAMETER_TYPES, String[].class);
            Annotation[] bindings = params.get(BINDINGS, Annotation[].class);
            List<LockedUse> uses = new ArrayList<>();
            for (int i = 0; i < methods.length; i++) {
                List<String> types = parameterTypes[i].isEmpty() ? List.of() : List.of(parameterTypes[i].split(","));
                uses.add(new LockedUse(beanClasses[i], LockedUses.method(declaringClasses[i], methods[i], types),
                        (Locked) bindings[i]));
            }
            return uses;
        }
    }

    /**
     * Hands out the application's {@code LockManager}, which the startup observer made (or makes it,
     * for a use before that observer ran).
     */
    public static final class ManagerCreator implements SyntheticBeanCreator<LockManager> {
        @Override
        public LockManager create(Instance<Object> lookup, Parameters params) {
            return lookup.select(LockedRuntime.class).get().lifecycle().manager();
        }
    }

    /**
     * Closes the application's {@code LockManager} when the application stops.
     */
    public static final class ManagerDisposer implements SyntheticBeanDisposer<LockManager> {
        @Override
        public void dispose(LockManager manager, Instance<Object> lookup, Parameters params) {
            lookup.select(LockedRuntime.class).get().lifecycle().destroy(manager);
        }
    }

    /**
     * Checks the run-time settings when the application starts, not at the first locked call; with
     * fenced uses, finds their data source and makes sure the fence table is there: at startup,
     * outside any transaction, where the build had no database; and makes the manager, which
     * connects now ({@link LockManagerLifecycle#start()}).
     */
    public static final class StartupCheck implements SyntheticObserver<Startup> {
        @Override
        public void observe(EventContext<Startup> event, Parameters params) {
            LockedRuntime runtime = CDI.current().select(LockedRuntime.class).get();
            String fencedUses = params.get(FENCED_USES, String.class, "");
            if (!fencedUses.isEmpty() && OptionalApi.JTA.isPresent()) {
                try {
                    runtime.fencing().prepare(fencedUses);
                } catch (IllegalArgumentException e) {
                    throw new DeploymentException(e.getMessage(), e);
                }
            }
            runtime.lifecycle().start();
        }
    }

    /**
     * Closes the application's manager when it stops, whether or not a bean instance of it was made.
     */
    public static final class ShutdownClose implements SyntheticObserver<Shutdown> {
        @Override
        public void observe(EventContext<Shutdown> event, Parameters params) {
            CDI.current().select(LockedRuntime.class).get().lifecycle().stop();
        }
    }
}
