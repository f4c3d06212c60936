package dev.locksmith.internal.cdi;

import java.lang.reflect.Method;

/**
 * What the {@code @Locked} interceptors need on each call, as one bean both registrations of
 * Locksmith add: the resolved operation of each method, and the life cycle of the
 * {@code LockManager} bean, which knows how releases wait for a transaction. Interceptors inject
 * this, never an extension: CDI Lite has no extension instance at run time.
 *
 * <p>Public only so that a CDI Lite container's generated code can name it as a bean type.
 */
public final class LockedRuntime {
    private final LockManagerLifecycle lifecycle;
    private final FencedCalls fencing;
    private volatile LockedMethods methods;

    /**
     * @param lifecycle the {@code LockManager} bean's life cycle
     * @param methods   the resolved methods, or null until the deployment is validated
     */
    LockedRuntime(LockManagerLifecycle lifecycle, LockedMethods methods) {
        this.lifecycle = lifecycle;
        this.fencing = new FencedCalls(lifecycle);
        this.methods = methods;
    }

    /**
     * @param checked every use, resolved when the deployment was validated
     */
    void resolved(LockedMethods checked) {
        this.methods = checked;
    }

    /**
     * @param beanClass the intercepted bean's class, as CDI gives it
     * @param method    the intercepted method
     * @return the operation to run
     */
    LockedOperation operation(Class<?> beanClass, Method method) {
        return methods.of(beanClass, method);
    }

    /**
     * @return the life cycle of the {@code LockManager} bean
     */
    LockManagerLifecycle lifecycle() {
        return lifecycle;
    }

    /**
     * @return the data source and checks of {@code @Locked(fenced = true)}
     */
    FencedCalls fencing() {
        return fencing;
    }
}
