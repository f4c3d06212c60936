package dev.locksmith.internal.cdi;

import dev.locksmith.LockManager;
import dev.locksmith.Locked;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Intercepted;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.AroundTimeout;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * The {@link Locked @Locked} interceptor, enabled for the whole application by its priority.
 *
 * <p>{@link #PRIORITY} places it outside {@code @Transactional} ({@code PLATFORM_BEFORE + 200}):
 * a transaction the method starts commits before the lock is released, and waiting for the lock
 * does not use up the transaction's timeout. It runs inside interceptors of lower priority, such
 * as Jakarta Concurrency's {@code @Asynchronous}, so the asynchronous execution holds the lock,
 * not the submission.
 *
 * <p>Not final, with a public no-argument constructor and field injection: EJB containers
 * instantiate interceptors of session beans themselves, and some subclass them.
 */
@Locked
@Interceptor
@Priority(LockedInterceptor.PRIORITY)
public class LockedInterceptor {
    /** {@code Interceptor.Priority.PLATFORM_BEFORE + 100}, the slot Jakarta Concurrency 3.2 chose for its {@code @Lock}. */
    public static final int PRIORITY = Interceptor.Priority.PLATFORM_BEFORE + 100;

    @Inject
    LockManager locks;

    @Inject
    LockedRuntime runtime;

    /** The bean whose method is intercepted, as CDI knows it: no guessing from proxy class names. */
    @Inject
    @Intercepted
    Bean<?> intercepted;

    /**
     * Runs the intercepted call while holding the lock its {@code @Locked} names.
     *
     * @param invocation the intercepted call
     * @return what the call returned
     * @throws dev.locksmith.LockTimeoutException if the lock was not acquired within the wait time
     * @throws Exception                          whatever the call threw
     */
    @AroundInvoke
    public Object lock(InvocationContext invocation) throws Exception {
        return locked(invocation, null);
    }

    /**
     * Runs an EJB timeout method ({@code @Schedule}, {@code @Timeout}) while holding the lock its
     * {@code @Locked} names: timers are how scheduled jobs run, and with {@code whenHeld = SKIP}
     * a server whose timer finds the lock held skips its run without failing the timeout. The
     * timer is what {@code {slot}} is read from.
     *
     * @param invocation the timeout call
     * @return what the call returned
     * @throws Exception as {@link #lock(InvocationContext)}
     */
    @AroundTimeout
    public Object lockTimeout(InvocationContext invocation) throws Exception {
        return locked(invocation, invocation.getTimer());
    }

    private Object locked(InvocationContext invocation, Object timer) throws Exception {
        LockedOperation operation = runtime.operation(intercepted.getBeanClass(), invocation.getMethod());
        return LockedCall.run(locks, runtime.lifecycle()::unlockDeferral, operation,
                invocation.getParameters(), timer, invocation::proceed);
    }
}
