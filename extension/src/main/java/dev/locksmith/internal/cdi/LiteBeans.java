package dev.locksmith.internal.cdi;

import dev.locksmith.LockManager;
import dev.locksmith.internal.classpath.OptionalApi;
import jakarta.enterprise.context.ApplicationScoped;
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
import jakarta.inject.Singleton;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * How a CDI Lite container makes and ends Locksmith's beans at run time, where no extension
 * instance exists: each bean is made by a class the container instantiates itself, from
 * configuration read at startup. Public, with public nested classes, because the container's
 * generated code instantiates them.
 */
public final class LiteBeans {
    private static final Logger LOG = System.getLogger(LocksmithLiteExtension.class.getName());
    private static final String LOCKED_METHODS = "lockedMethods";
    private static final String FENCED_USES = "fencedUses";

    private LiteBeans() {
    }

    /**
     * @param components    where the beans are added
     * @param lockedMethods how many {@code @Locked} methods discovery found, for the startup line
     * @param fencedUses    the uses annotated {@code fenced = true}, for messages; empty when none is
     */
    static void add(SyntheticComponents components, int lockedMethods, String fencedUses) {
        components.addBean(LockedRuntime.class)
                .type(LockedRuntime.class)
                .scope(Singleton.class)
                .withParam(LOCKED_METHODS, lockedMethods)
                .createWith(RuntimeCreator.class);
        components.addBean(LockManager.class)
                .type(LockManager.class)
                .scope(ApplicationScoped.class)
                .createWith(ManagerCreator.class)
                .disposeWith(ManagerDisposer.class);
        components.addObserver(Startup.class)
                .declaringClass(LiteBeans.class)
                .withParam(FENCED_USES, fencedUses)
                .observeWith(StartupCheck.class);
    }

    /**
     * Reads and checks the run-time settings, fails startup on a bad one, and logs the startup line.
     */
    public static final class RuntimeCreator implements SyntheticBeanCreator<LockedRuntime> {
        @Override
        public LockedRuntime create(Instance<Object> lookup, Parameters params) {
            DeploymentCheck check = DeploymentCheck.of(List.of(), ConfigValues.ofApplication());
            if (!check.problems().isEmpty()) {
                DeploymentCheck.Problem first = check.problems().get(0);
                throw new DeploymentException(first.message(), first.cause());
            }
            LockManagerLifecycle lifecycle = new LockManagerLifecycle(() -> lookup);
            lifecycle.configure(check.settings());
            LockedRuntime runtime = new LockedRuntime(lifecycle, check.methods());
            // The data source and the table are found at startup (StartupCheck): a build step has no database.
            runtime.fencing().configure(check.fencing());
            LOG.log(Level.INFO, DeploymentCheck.startupLine(params.get(LOCKED_METHODS, Integer.class), check.settings()));
            return runtime;
        }
    }

    /**
     * Makes the application's {@code LockManager}, on first use.
     */
    public static final class ManagerCreator implements SyntheticBeanCreator<LockManager> {
        @Override
        public LockManager create(Instance<Object> lookup, Parameters params) {
            return lookup.select(LockedRuntime.class).get().lifecycle().create();
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
     * Checks the run-time settings when the application starts, not at the first locked call, and
     * with fenced uses, finds their data source and makes sure the fence table is there: at
     * startup, outside any transaction, where the build had no database.
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
        }
    }
}
