package dev.locksmith.internal.cdi;

import dev.locksmith.Locked;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * The inner half of {@link Locked @Locked}: runs inside {@code @Transactional}
 * ({@code PLATFORM_BEFORE + 200}), so it sees a transaction the method starts after
 * {@link LockedInterceptor} took the lock outside it. It has that transaction check the lock,
 * and extend its lease, before commit: a lock lost meanwhile fails the commit, as it does for a
 * lock taken inside a transaction. For {@code @Locked(fenced = true)} it then checks the lock's
 * fencing token against the fence table in that transaction, before the method runs
 * ({@link FencedCalls}). The release stays with {@link LockedInterceptor}, after the commit.
 *
 * <p>Not final, with a public no-argument constructor and field injection, for EJB containers.
 */
@Locked
@Interceptor
@Priority(LockedTransactionGuard.PRIORITY)
public class LockedTransactionGuard {
    /** Just inside {@code @Transactional}'s {@code PLATFORM_BEFORE + 200}. */
    public static final int PRIORITY = Interceptor.Priority.PLATFORM_BEFORE + 250;

    @Inject
    LockedRuntime runtime;

    /**
     * @param invocation the intercepted call, already holding its lock
     * @return what the call returned
     * @throws Exception whatever the call threw
     */
    @AroundInvoke
    public Object watch(InvocationContext invocation) throws Exception {
        LockedCall.Running call = LockedCall.innermost();
        if (call != null) {
            runtime.lifecycle().unlockDeferral().watchUntilCompletion(call.lock());
            if (call.operation().fenced()) {
                // The first statement under the lock in this transaction: before the method's own.
                runtime.fencing().check(call.lock(), call.operation());
            }
        }
        return invocation.proceed();
    }
}
