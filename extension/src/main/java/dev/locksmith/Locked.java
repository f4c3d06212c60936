package dev.locksmith;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.temporal.ChronoUnit;

/**
 * Runs the annotated business method (or every business method of the annotated type) while
 * holding a distributed lock. Works on CDI beans and on EJB session beans.
 *
 * <pre>{@code
 * @Locked("stock:{sku}")                  // by parameter name (compile with -parameters)
 * public void reserve(String sku, int quantity) { ... }
 *
 * @Locked(value = "order:{0}", waitTime = 2, type = LockType.FAIR)  // by position
 * public void pay(long orderId) { ... }
 *
 * @Locked("customer:{order.customer.id}")  // through getters or record components
 * public void ship(Order order) { ... }
 * }</pre>
 *
 * <p>Inside a JTA transaction the release is deferred until the transaction completes, and the
 * commit fails if the lock was lost before it. A lock not acquired within the wait time ends the
 * call with {@link LockTimeoutException}.
 */
@InterceptorBinding
@Inherited
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Locked {

    /**
     * @return the lock name template: literal text with {@code {name}}, {@code {0}} or
     *         {@code {param.property}} placeholders; empty means {@code Class#method}
     */
    @Nonbinding
    String value() default "";

    /**
     * @return how long to wait for the lock, in {@link #unit()}; -1 takes {@code locksmith.wait-time}
     */
    @Nonbinding
    long waitTime() default -1;

    /**
     * @return how long the hold lasts, in {@link #unit()}; -1 keeps it with the watchdog
     */
    @Nonbinding
    long leaseTime() default -1;

    /**
     * @return the unit of {@link #waitTime()} and {@link #leaseTime()}
     */
    @Nonbinding
    ChronoUnit unit() default ChronoUnit.SECONDS;

    /**
     * @return which kind of lock to take
     */
    @Nonbinding
    LockType type() default LockType.REENTRANT;
}
