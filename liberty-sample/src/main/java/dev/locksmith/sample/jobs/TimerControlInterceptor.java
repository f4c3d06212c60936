package dev.locksmith.sample.jobs;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.AroundTimeout;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Runs before {@code @Locked} (a smaller priority is further out): a timer of a server whose
 * {@code sample.jobs.enabled} is false does nothing, not even take the lock; with
 * {@code sample.jobs.skew} (ms) it waits that long first, as a server whose clock runs behind
 * fires its timers late. Clusters have such skew; a job locked with {@code waitTime = 0} alone
 * would then run twice per slot. It controls EJB timeouts ({@code @Schedule}) and, since Quarkus
 * calls a {@code @Scheduled} method as a business method, Quarkus's scheduled methods too.
 */
@TimerControl
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 50)
public class TimerControlInterceptor {
    @Inject
    @ConfigProperty(name = "sample.jobs.enabled", defaultValue = "false")
    boolean enabled;

    @Inject
    @ConfigProperty(name = "sample.jobs.skew", defaultValue = "0")
    long skewMillis;

    @AroundTimeout
    public Object controlTimeout(InvocationContext invocation) throws Exception {
        return control(invocation);
    }

    @AroundInvoke
    public Object controlScheduledCall(InvocationContext invocation) throws Exception {
        return control(invocation);
    }

    private Object control(InvocationContext invocation) throws Exception {
        if (!enabled) {
            return null;
        }
        if (skewMillis > 0) {
            Thread.sleep(skewMillis);
        }
        return invocation.proceed();
    }
}
