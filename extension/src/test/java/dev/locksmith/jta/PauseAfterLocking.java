package dev.locksmith.jta;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InterceptorBinding;
import jakarta.interceptor.InvocationContext;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Stops a call right after {@code @Locked} granted its lock and before its transaction starts, as a
 * long garbage collection would, when a test has set a {@link Gate}: between {@code @Locked}'s
 * interceptor ({@code PLATFORM_BEFORE + 100}) and {@code @Transactional} ({@code + 200}).
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@interface PauseAfterLocking {

    /** The next call to stop, and when it may go on. */
    AtomicReference<Gate> NEXT = new AtomicReference<>();

    /**
     * One stop: {@code arrived} counts down when the call stops, and the call goes on once
     * {@code resume} has counted down (or after a minute, so nothing hangs).
     *
     * @param arrived counted down by the stopped call
     * @param resume  counted down by the test
     */
    record Gate(CountDownLatch arrived, CountDownLatch resume) {
        static Gate next() {
            Gate gate = new Gate(new CountDownLatch(1), new CountDownLatch(1));
            NEXT.set(gate);
            return gate;
        }
    }

    /**
     * The interceptor that stops the call.
     */
    @PauseAfterLocking
    @Interceptor
    @Priority(Interceptor.Priority.PLATFORM_BEFORE + 150)
    class Pausing {
        @AroundInvoke
        public Object pause(InvocationContext invocation) throws Exception {
            Gate gate = NEXT.getAndSet(null);
            if (gate != null) {
                gate.arrived().countDown();
                if (!gate.resume().await(1, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("the test never let the paused call go on");
                }
            }
            return invocation.proceed();
        }
    }
}
