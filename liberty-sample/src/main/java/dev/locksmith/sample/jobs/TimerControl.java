package dev.locksmith.sample.jobs;

import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts a bean's timers under {@link TimerControlInterceptor}: switched on by configuration, and
 * delayed on purpose on one server, as clock skew between servers delays them.
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface TimerControl {
}
