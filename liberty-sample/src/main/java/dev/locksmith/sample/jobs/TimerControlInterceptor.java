package dev.locksmith.sample.jobs;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundTimeout;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Runs before {@code @Locked} (a smaller priority is further out): a timer of a server whose
 * {@code sample.jobs.enabled} is false does nothing, not even take the lock; with
 * {@code sample.jobs.skew} (ms) it waits that long first, as a server whose clock runs behind
 * fires its timers late. Clusters have such skew; a job locked with {@code waitTime = 0} alone
 * would then run twice per slot.
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
    public Object control(InvocationContext invocation) throws Exception {
        if (!enabled) {
            return null;
        }
        if (skewMillis > 0) {
            Thread.sleep(skewMillis);
        }
        return invocation.proceed();
    }
}
