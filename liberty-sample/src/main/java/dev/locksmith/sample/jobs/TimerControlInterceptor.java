package dev.locksmith.sample.jobs;

import dev.locksmith.Locked;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.AroundTimeout;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Runs before {@code @Locked} (a smaller priority is further out) and applies {@link JobControl}:
 * a timer of a server whose jobs are off does nothing, not even take the lock; on a server whose
 * timers are late it waits that long first. Then it marks when the call goes on to the lock and,
 * when it returns, files how long it waited under the {@code @Locked} job's name ({@link LockWaits}).
 * It controls EJB timeouts ({@code @Schedule}) and, since
 * Quarkus calls a {@code @Scheduled} method as a business method, Quarkus's scheduled methods too.
 */
@TimerControl
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 50)
public class TimerControlInterceptor {
    @Inject
    JobControl jobs;

    @Inject
    LockWaits waits;

    @AroundTimeout
    public Object controlTimeout(InvocationContext invocation) throws Exception {
        return control(invocation);
    }

    @AroundInvoke
    public Object controlScheduledCall(InvocationContext invocation) throws Exception {
        return control(invocation);
    }

    private Object control(InvocationContext invocation) throws Exception {
        if (!jobs.enabled()) {
            return null;
        }
        jobs.awaitSkew();
        LockWaits.callStarts();
        try {
            return invocation.proceed();
        } finally {
            waits.callEnds(invocation.getMethod().getAnnotation(Locked.class));
        }
    }
}
