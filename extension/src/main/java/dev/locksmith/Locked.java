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
 * call with {@link LockTimeoutException}, unless {@link #whenHeld()} says to skip it.
 *
 * <p>On a timer (an EJB {@code @Schedule}, a Jakarta Concurrency scheduled method) that fires on
 * every server of a cluster, the job runs once per slot with a minimum hold and a skip:
 *
 * <pre>{@code
 * @Schedule(second = "0/10", minute = "*", hour = "*", persistent = false)
 * @Locked(value = "report", whenHeld = WhenHeld.SKIP,   // held elsewhere: not run, nothing thrown
 *         minHold = 5, leaseTime = 60)                 // kept 5 s at least, 60 s at most
 * void report() { ... }
 * }</pre>
 */
@InterceptorBinding
@Inherited
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Locked {

    /**
     * @return the lock name template: literal text with {@code {name}}, {@code {0}} or
     *         {@code {param.property}} placeholders; empty means {@code Class#method}. A
     *         {@link java.util.Date} or {@link java.time.temporal.TemporalAccessor} value (such as
     *         {@code {timer.nextTimeout}} of a timeout method's {@code jakarta.ejb.Timer}) is written
     *         as an ISO-8601 instant in UTC, the same on every server whatever its time zone.
     *         {@code {slot}} is the scheduled time of the current firing of an EJB timeout method
     *         or a Quarkus {@code @Scheduled} method with a {@code ScheduledExecution} parameter,
     *         such as {@code 2026-03-01T10:00:02Z} (see {@code docs/scheduled-jobs.md}); elsewhere
     *         it fails the deployment
     */
    @Nonbinding
    String value() default "";

    /**
     * @return how long to wait for the lock, in {@link #unit()}; -1 takes {@code locksmith.wait-time},
     *         or 0 (one attempt) when {@link #whenHeld()} is {@link WhenHeld#SKIP}
     */
    @Nonbinding
    long waitTime() default -1;

    /**
     * @return how long the hold lasts, in {@link #unit()}; -1 keeps it with the watchdog
     */
    @Nonbinding
    long leaseTime() default -1;

    /**
     * @return the shortest time the lock is kept after it was granted, in {@link #unit()}
     *         (ShedLock's {@code lockAtLeastFor}); 0, the default, releases it when the method
     *         returns. A method that returns sooner leaves the lock taken, by nobody, for what is
     *         left: no watchdog renews it, and nobody (not even this server) gets it before then.
     *         Inside a transaction it is kept until the later of the commit and the minimum hold.
     *         At most {@link #leaseTime()} when that is fixed; only for {@code REENTRANT} and
     *         {@code FAIR} locks. Overridable as {@code .../Locked/minHold}
     */
    @Nonbinding
    long minHold() default 0;

    /**
     * @return what happens when the lock is not free within the wait time: {@link WhenHeld#FAIL}
     *         (the default) throws {@link LockTimeoutException}; {@link WhenHeld#SKIP} does not call
     *         the method and returns normally. A skipping or minimum-holding call also records its
     *         run in Redis for {@link LockManager#describe(String)} ({@link LastRun})
     */
    @Nonbinding
    WhenHeld whenHeld() default WhenHeld.FAIL;

    /**
     * @return the unit of the numeric {@link #waitTime()}, {@link #leaseTime()} and {@link #minHold()};
     *         the text members ({@link #waitDuration()} and its kin) carry their own
     */
    @Nonbinding
    ChronoUnit unit() default ChronoUnit.SECONDS;

    /**
     * {@link #waitTime()} written with its own unit, such as {@code "500ms"}, {@code "1.5s"},
     * {@code "PT2S"}: for a use whose times need different units. Empty, the default, leaves the
     * wait to {@link #waitTime()}. Setting both (a {@code waitTime} other than -1) fails the
     * deployment; the configuration override {@code .../Locked/waitTime} wins over either.
     *
     * @return the wait as text, or empty
     */
    @Nonbinding
    String waitDuration() default "";

    /**
     * {@link #leaseTime()} written with its own unit, such as {@code "1m"}. Empty, the default,
     * leaves the lease to {@link #leaseTime()}; setting both fails the deployment; the override
     * {@code .../Locked/leaseTime} wins over either.
     *
     * @return the lease as text, or empty
     */
    @Nonbinding
    String leaseDuration() default "";

    /**
     * {@link #minHold()} written with its own unit, such as {@code "1.5s"}:
     *
     * <pre>{@code
     * @Locked(value = "interest", whenHeld = WhenHeld.SKIP, minHoldDuration = "1.5s", leaseDuration = "1m")
     * }</pre>
     *
     * Empty, the default, leaves the minimum hold to {@link #minHold()}; setting both (a
     * {@code minHold} other than 0) fails the deployment; the override {@code .../Locked/minHold}
     * wins over either.
     *
     * @return the minimum hold as text, or empty
     */
    @Nonbinding
    String minHoldDuration() default "";

    /**
     * The job this lock runs, when it is named apart from the lock: the name its runs are recorded
     * under ({@link LockManager#describeJob(String)}, {@link LockManager#describe(String)}'s
     * {@link LockInfo#lastRun()}) whatever slot's lock name ran them.
     *
     * <pre>{@code
     * @Schedule(second = "0/2", minute = "*", hour = "*", persistent = false)
     * @Locked(value = "interest:{slot}", job = "interest", whenHeld = WhenHeld.SKIP, minHoldDuration = "1.5s")
     * void payInterest() { ... }      // locks interest:2026-03-01T10:00:02Z; describeJob("interest") answers
     * }</pre>
     *
     * Empty, the default, records the runs under the lock's own name, except for a name with a slot
     * in it ({@code {slot}}, or a placeholder on a {@code jakarta.ejb.Timer} or Quarkus
     * {@code ScheduledExecution} parameter): its runs are recorded under the template as written,
     * such as {@code interest:{slot}}. A lock whose name differs from its job's is a per-run name:
     * its fencing counter lives only as long as the slot needs it (see {@code docs/configuration.md}).
     *
     * @return the job's name, or empty
     */
    @Nonbinding
    String job() default "";

    /**
     * @return which kind of lock to take
     */
    @Nonbinding
    LockType type() default LockType.REENTRANT;

    /**
     * Fenced writes: the database itself refuses the work of a holder whose lock ran out.
     *
     * <pre>{@code
     * @Locked(value = "account:{id}", fenced = true)
     * @Transactional
     * public void deposit(long id, BigDecimal amount) { ... }   // JPA or JDBC on the configured data source
     * }</pre>
     *
     * <p>With {@code true}, the first statement under the lock in the caller's JTA transaction
     * checks the lock's fencing token against the highest token the database has seen for the
     * lock's name ({@link Fence}, on the data source {@code locksmith.fencing.data-source}). A
     * holder whose lease ran out, and whose lock a later holder has taken since, gets
     * {@link FencedWriteRefusedException} and its transaction rolls back; a later holder waits for
     * a stale holder that checked first, so it never reads data that holder is still about to
     * change. A holder that was never stale pays one {@code UPDATE} per transaction. See
     * {@code docs/fencing.md}.
     *
     * <p>The call must run in a transaction (a {@code @Transactional} method, an EJB with
     * container-managed transactions, or one the caller began); the check happens inside it. Not
     * with {@code type = READ}, nor on a method whose transaction attribute excludes a transaction
     * ({@code NEVER}, {@code NOT_SUPPORTED}): the deployment fails. Overridable as
     * {@code .../Locked/fenced}.
     *
     * @return whether the database checks this holder's fencing token in its transaction; false by default
     */
    @Nonbinding
    boolean fenced() default false;
}
