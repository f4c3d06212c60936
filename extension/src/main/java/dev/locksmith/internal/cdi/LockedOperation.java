package dev.locksmith.internal.cdi;

import dev.locksmith.internal.config.Durations;
import dev.locksmith.LockType;
import dev.locksmith.Locked;
import dev.locksmith.WhenHeld;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.time.temporal.UnsupportedTemporalTypeException;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One {@code @Locked} use, resolved once when the container starts: the name template bound to
 * the method, the lock type, the wait, lease and minimum hold after configuration overrides, and
 * what a skipped call returns.
 *
 * @param where       names the use in messages: {@code @Locked("stock:{sku}") on ShopService#reserve(String sku, int qty)}
 * @param name        the bound name template
 * @param type        which kind of lock
 * @param waitTime    how long to wait for the lock; zero makes one attempt
 * @param leaseTime   the fixed lease, or null for a watchdog-kept lease
 * @param minHold     how long after the grant the lock is kept at least; zero for no minimum
 * @param skip        whether a lock held elsewhere skips the call ({@link WhenHeld#SKIP})
 * @param whenSkipped what a skipped call returns: null, or {@code Optional.empty()}
 * @param fenced      whether the call's transaction checks the lock's fencing token against the fence table
 * @param job         the job its runs are recorded under, or null for the lock's own name
 * @param firingSlot  where {@code {slot}} comes from, or null when the name has none
 */
record LockedOperation(String where, LockNameTemplate name, LockType type, Duration waitTime, Duration leaseTime,
                       Duration minHold, boolean skip, Object whenSkipped, boolean fenced, String job,
                       FiringSlot firingSlot) {
    private static final long DEFAULT = -1;

    /**
     * @param beanClass   the bean class
     * @param method      the business method
     * @param locked      the binding that applies to it
     * @param values      configuration, for overrides
     * @param defaultWait {@code locksmith.wait-time}
     * @return the resolved use
     * @throws IllegalArgumentException naming the class, the method, the bad value and the fix
     */
    static LockedOperation resolve(Class<?> beanClass, Method method, Locked locked, ConfigValues values,
                                   Duration defaultWait) {
        String where = "@Locked(\"" + locked.value() + "\") on " + beanClass.getSimpleName() + "#" + method.getName()
                + Arrays.stream(method.getParameters()).map(LockedOperation::describe)
                .collect(Collectors.joining(", ", "(", ")"));
        try {
            LockNameTemplate name = LockNameTemplate.bind(locked.value(), beanClass, method);
            Duration wait = time(values, beanClass, method, LockedOverrides.WAIT_TIME, locked.waitTime(),
                    locked.waitDuration(), locked.unit());
            Duration lease = time(values, beanClass, method, LockedOverrides.LEASE_TIME, locked.leaseTime(),
                    locked.leaseDuration(), locked.unit());
            Duration minHold = time(values, beanClass, method, LockedOverrides.MIN_HOLD, locked.minHold(),
                    locked.minHoldDuration(), locked.unit());
            FiringSlot firingSlot = name.hasSlot() ? FiringSlot.of(method) : null;
            if (locked.type() == null) {
                throw new IllegalArgumentException("type is null; use one of " + Arrays.toString(LockType.values()));
            }
            if (locked.whenHeld() == null) {
                throw new IllegalArgumentException("whenHeld is null; use one of " + Arrays.toString(WhenHeld.values()));
            }
            boolean skip = locked.whenHeld() == WhenHeld.SKIP;
            minHold = minHold == null ? Duration.ZERO : minHold;
            checkMinHold(minHold, lease, locked);
            checkWait(wait, minHold, lease, skip);
            if (skip && method.getReturnType().isPrimitive() && method.getReturnType() != void.class) {
                throw new IllegalArgumentException("whenHeld = SKIP, but the method returns " + method.getReturnType()
                        + ", which a skipped call has no value for. Return void, a wrapper such as "
                        + box(method.getReturnType()) + " (null when skipped) or Optional (empty when skipped)");
            }
            // A skipping job makes one attempt unless told otherwise: waiting for another server's
            // run of the same slot would only run it again after that one.
            Duration waited = wait != null ? wait : skip ? Duration.ZERO : defaultWait;
            boolean fenced = fenced(values, beanClass, method, locked);
            String job = job(locked, name, method);
            return new LockedOperation(where, name, locked.type(), waited, lease, minHold, skip,
                    method.getReturnType() == Optional.class ? Optional.empty() : null, fenced, job, firingSlot);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static boolean fenced(ConfigValues values, Class<?> beanClass, Method method, Locked locked) {
        var override = LockedOverrides.find(values, beanClass, method, LockedOverrides.FENCED);
        boolean fenced = locked.fenced();
        String source = "fenced = true";
        if (override.isPresent()) {
            String text = override.get().value();
            if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
                throw new IllegalArgumentException("config key " + override.get().key() + " = '" + text
                        + "' is not true or false");
            }
            fenced = Boolean.parseBoolean(text);
            source = "config key " + override.get().key() + " = '" + text + "'";
        }
        if (!fenced) {
            return false;
        }
        if (locked.type() == LockType.READ) {
            throw new IllegalArgumentException(source + " with type = READ: several readers hold a read lock at once,"
                    + " so a reader with an older token is not stale, yet the fence would refuse it and make the"
                    + " readers' transactions wait for each other. Fence the writers (type = WRITE), or remove"
                    + " fenced = true");
        }
        var excluding = TransactionAttributes.excluding(beanClass, method);
        if (excluding.isPresent()) {
            throw new IllegalArgumentException(source + " on a method declared " + excluding.get()
                    + ", which runs without a transaction: the fencing token is checked in the method's transaction,"
                    + " and its writes commit with it. Use REQUIRED, REQUIRES_NEW or MANDATORY, or remove fenced = true");
        }
        return true;
    }

    private static void checkMinHold(Duration minHold, Duration lease, Locked locked) {
        if (minHold.isZero()) {
            return;
        }
        if (locked.type() != LockType.REENTRANT && locked.type() != LockType.FAIR) {
            throw new IllegalArgumentException("minHold = " + Durations.format(minHold) + " with type = " + locked.type()
                    + ": only a REENTRANT or FAIR lock can be kept after its holder returns. Use one of them for a job");
        }
        if (lease != null && minHold.compareTo(lease) > 0) {
            throw new IllegalArgumentException("minHold = " + Durations.format(minHold) + " is longer than leaseTime = "
                    + Durations.format(lease) + ". The lease is the longest the lock is kept (ShedLock's lockAtMostFor),"
                    + " the minimum hold the shortest (lockAtLeastFor): shorten minHold, lengthen leaseTime, or use"
                    + " leaseTime = -1 to keep the lock with the watchdog while the method runs");
        }
    }

    /**
     * Against each other: a unit that fits one attribute may turn another into nonsense
     * ({@code minHold = 1500, unit = MILLIS} also makes {@code leaseTime = 60} 60 ms).
     */
    private static void checkWait(Duration wait, Duration minHold, Duration lease, boolean skip) {
        if (wait == null) {
            return;
        }
        if (skip && !minHold.isZero() && wait.compareTo(minHold) >= 0) {
            throw new IllegalArgumentException("waitTime = " + Durations.format(wait) + " is not shorter than minHold = "
                    + Durations.format(minHold) + " with whenHeld = SKIP: a server whose timer fires late would wait"
                    + " out the minimum hold, get the lock and run the slot a second time. Use waitTime = 0 (or leave"
                    + " it at -1), or a wait well under the minimum hold");
        }
        if (skip && lease != null && wait.compareTo(lease) >= 0) {
            throw new IllegalArgumentException("waitTime = " + Durations.format(wait) + " is not shorter than"
                    + " leaseTime = " + Durations.format(lease) + " with whenHeld = SKIP: a server would wait out the"
                    + " whole run of another and run the slot again. Use waitTime = 0 (or leave it at -1), or check"
                    + " the unit of each time (waitDuration, leaseDuration and minHoldDuration take their own)");
        }
    }

    /**
     * @return the job named apart from the lock, the template of a name per firing, else null
     */
    private static String job(Locked locked, LockNameTemplate name, Method method) {
        String job = locked.job() == null ? "" : locked.job();
        if (!job.isEmpty()) {
            if (job.isBlank() || job.length() > 512) {
                throw new IllegalArgumentException("job = '" + job + "' is not a job name: use 1 to 512 characters,"
                        + " not all blank, such as job = \"interest\"");
            }
            return job;
        }
        return name.namesEachFiring(method) ? name.text() : null;
    }

    private static String box(Class<?> primitive) {
        return java.lang.invoke.MethodType.methodType(primitive).wrap().returnType().getSimpleName();
    }

    /**
     * @param arguments the call's arguments
     * @return the lock name for this call
     * @throws IllegalArgumentException when a value the name needs is null
     */
    String lockName(Object[] arguments) {
        return name.render(arguments, where);
    }

    /**
     * @param arguments the call's arguments
     * @param timer     the timer of a timeout call, or null
     * @return the scheduled time of this firing, or null when the name has no {@code {slot}}
     * @throws IllegalStateException when the name has {@code {slot}} and the call no firing time
     *                               (a direct call, an interval timer)
     */
    Instant slot(Object[] arguments, Object timer) {
        return firingSlot == null ? null : firingSlot.slot(timer, arguments);
    }

    /**
     * @return the time of one attribute: the override, else the annotation's text member, else its
     *         number; null for -1
     */
    private static Duration time(ConfigValues values, Class<?> beanClass, Method method, String attribute,
                                 long annotated, String text, ChronoUnit unit) {
        var override = LockedOverrides.find(values, beanClass, method, attribute);
        String member = attribute.equals(LockedOverrides.WAIT_TIME) ? "waitDuration"
                : attribute.equals(LockedOverrides.LEASE_TIME) ? "leaseDuration" : "minHoldDuration";
        long unset = attribute.equals(LockedOverrides.MIN_HOLD) ? 0 : DEFAULT;
        boolean written = text != null && !text.isEmpty();
        if (written && annotated != unset) {
            throw new IllegalArgumentException(attribute + " = " + annotated + " and " + member + " = \"" + text
                    + "\" are both set; keep one: " + member + " carries its own unit, " + attribute + " takes unit = "
                    + unitName(unit));
        }
        if (override.isEmpty() && written) {
            Duration parsed;
            try {
                parsed = Durations.parse(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(member + " = \"" + text + "\" is not a duration; write "
                        + Durations.FORMS + ", or leave it empty", e);
            }
            return checked(member + " = \"" + text + "\"", attribute, parsed);
        }
        if (override.isEmpty()) {
            return checked(attribute + " = " + annotated + " " + unitName(unit), attribute, annotated, unit);
        }
        String key = override.get().key();
        String overridden = override.get().value();
        if (overridden.matches("-?\\d+")) {
            return checked(key + " = '" + overridden + "' (in " + unitName(unit) + ", the annotation's unit)", attribute,
                    Long.parseLong(overridden), unit);
        }
        Duration parsed;
        try {
            parsed = Durations.parse(overridden);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("config key " + key + " = '" + overridden + "' is not a duration; write "
                    + Durations.FORMS + ", a plain number in " + unitName(unit) + ", or -1 for the default", e);
        }
        return checked("config key " + key + " = '" + overridden + "'", attribute, parsed);
    }

    private static Duration checked(String what, String attribute, long amount, ChronoUnit unit) {
        if (amount == DEFAULT) {
            return null;
        }
        if (unit == null) {
            throw new IllegalArgumentException("unit is null; use ChronoUnit.SECONDS or MILLIS");
        }
        try {
            return checked(what, attribute, Duration.of(amount, unit));
        } catch (UnsupportedTemporalTypeException | ArithmeticException e) {
            throw new IllegalArgumentException("unit " + unit.name() + " has no fixed length; use MILLIS, SECONDS, MINUTES"
                    + " or HOURS", e);
        }
    }

    private static Duration checked(String what, String attribute, Duration duration) {
        boolean lease = attribute.equals(LockedOverrides.LEASE_TIME);
        if (attribute.equals(LockedOverrides.MIN_HOLD) && duration.isNegative()) {
            throw new IllegalArgumentException(what + " is negative. Use 0 for no minimum hold, or a positive time"
                    + " such as 30s");
        }
        if (duration.isNegative() || (lease && duration.isZero())) {
            throw new IllegalArgumentException(what + (lease
                    ? " is not a lease. Use -1 for a lease the watchdog keeps, or a positive time such as 30s"
                    : " is negative. Use -1 for the configured default (" + ConfigKey.WAIT_TIME.key()
                    + "), 0 for a single attempt, or a positive wait such as 5s"));
        }
        return duration;
    }

    private static String unitName(ChronoUnit unit) {
        return unit == null ? "null" : unit.name();
    }

    private static String describe(Parameter parameter) {
        String type = parameter.getType().getSimpleName();
        return parameter.isNamePresent() ? type + " " + parameter.getName() : type;
    }
}
