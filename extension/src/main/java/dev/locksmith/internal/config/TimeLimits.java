package dev.locksmith.internal.config;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The longest leases and waits Locksmith accepts, and the checks every entry point shares: the
 * builder, the lock methods, {@code callWithLock} and {@code @Locked}.
 *
 * <p>A lease ends up as a millisecond expiry in Redis and in Lua arithmetic, where numbers of 14
 * digits and more lose their exact text; 100 years keeps every expiry far below that.
 */
public final class TimeLimits {
    /** The longest lease: 100 years. */
    public static final Duration MAX_LEASE = Duration.ofDays(36_500);
    /** The longest finite wait: about 292 years, as many nanoseconds as a long holds. */
    public static final Duration MAX_WAIT = Duration.ofNanos(Long.MAX_VALUE);

    private TimeLimits() {
    }

    /**
     * @param amount   a lease in {@code unit}, from the caller
     * @param unit     its unit
     * @param whatFor  names the lock or setting in the message
     * @param allowed  what else the caller may pass instead, for the message (such as "-1 for a watchdog lease")
     * @return the lease in milliseconds, at least 1
     * @throws IllegalArgumentException naming the value and the accepted range
     */
    public static long leaseMillis(long amount, TimeUnit unit, String whatFor, String allowed) {
        requireUnit(unit, whatFor);
        long millis = unit.toMillis(amount);
        if (amount <= 0 || millis <= 0) {
            throw new IllegalArgumentException("Lease time " + amount + " " + unit + " for " + whatFor
                    + " is not a positive number of milliseconds" + (allowed.isEmpty() ? "" : "; " + allowed));
        }
        if (millis > MAX_LEASE.toMillis()) {
            throw tooLong("Lease time " + amount + " " + unit, whatFor);
        }
        return millis;
    }

    /**
     * @param subject the setting and its value as the caller wrote them, such as "Lease time PT1S"
     * @param value   the value
     * @param whatFor names the lock or setting in the message
     * @return the same value
     * @throws IllegalArgumentException if it is longer than {@link #MAX_LEASE}
     */
    public static Duration requireAtMostMax(String subject, Duration value, String whatFor) {
        if (value.compareTo(MAX_LEASE) > 0) {
            throw tooLong(subject, whatFor);
        }
        return value;
    }

    /**
     * @param wait    a wait from the caller
     * @param whatFor names the lock in the message
     * @return the wait in nanoseconds
     * @throws IllegalArgumentException if it is null, negative or longer than {@link #MAX_WAIT}
     */
    public static long waitNanos(Duration wait, String whatFor) {
        if (wait == null || wait.isNegative()) {
            throw new IllegalArgumentException("Wait time " + wait + " for " + whatFor
                    + " must be zero or positive, for example Duration.ofSeconds(5)");
        }
        if (wait.compareTo(MAX_WAIT) > 0) {
            throw new IllegalArgumentException("Wait time " + wait + " for " + whatFor + " is longer than the longest"
                    + " wait Locksmith accepts, " + MAX_WAIT + " (" + Long.MAX_VALUE + " ns); use lock() to wait without limit");
        }
        return wait.toNanos();
    }

    /**
     * @throws IllegalArgumentException if {@code unit} is null
     */
    public static TimeUnit requireUnit(TimeUnit unit, String whatFor) {
        if (unit == null) {
            throw new IllegalArgumentException("Time unit for " + whatFor + " is null; pass a TimeUnit such as SECONDS");
        }
        return unit;
    }

    private static IllegalArgumentException tooLong(String value, String whatFor) {
        return new IllegalArgumentException(value + " for " + whatFor + " is longer than the longest time Locksmith"
                + " accepts, " + MAX_LEASE.toMillis() + " ms (" + MAX_LEASE.toDays() + " days). For a lock held"
                + " as long as the work takes, let the watchdog keep a short lease alive instead");
    }
}
