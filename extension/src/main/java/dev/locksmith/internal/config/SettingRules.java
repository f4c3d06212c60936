package dev.locksmith.internal.config;

import dev.locksmith.RedisMode;
import java.time.Duration;

/**
 * Every manager setting's default and check, written once for the two ways to configure a
 * manager: {@code Locksmith.builder()} and MicroProfile Config ({@code locksmith.*}). Each check
 * gets the setting and its value as the caller wrote them (the subject, such as
 * {@code "Lease time PT0.05S"} or {@code "locksmith.lease-time = '50ms'"}), so the message points
 * at the line to fix.
 */
public final class SettingRules {
    /** Where Redis is unless told otherwise. */
    public static final String DEFAULT_REDIS_URI = "redis://localhost:6379";
    /** The start of every key. */
    public static final String DEFAULT_KEY_PREFIX = "locksmith:";
    /** The watchdog lease, renewed every third of it. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
    /** How long one Redis command may take. */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);
    /** How long an acquisition waits for its replicas. */
    public static final Duration DEFAULT_SYNC_TIMEOUT = Duration.ofMillis(100);
    /** How long a fencing counter stays in Redis after it was created. */
    public static final Duration DEFAULT_FENCING_COUNTER_LIFETIME = Duration.ofHours(24);
    /** How long {@code @Locked} waits unless it says otherwise. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);

    private static final Duration SHORTEST_LEASE = Duration.ofMillis(100);
    private static final Duration SHORTEST_TIMEOUT = Duration.ofMillis(1);
    private static final Duration SHORTEST_COUNTER_LIFETIME = Duration.ofSeconds(1);

    private SettingRules() {
    }

    /**
     * @throws IllegalArgumentException if the prefix is null or has a brace
     */
    public static String keyPrefix(String prefix, String subject) {
        if (prefix == null) {
            throw new IllegalArgumentException(subject + " is missing; use for example " + DEFAULT_KEY_PREFIX);
        }
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException(subject + " must not contain '{' or '}': Locksmith puts each lock name"
                    + " in braces to keep its keys in one cluster slot. Use for example " + DEFAULT_KEY_PREFIX);
        }
        return prefix;
    }

    /**
     * @throws IllegalArgumentException if the lease is shorter than 100 ms or longer than {@link TimeLimits#MAX_LEASE}
     */
    public static Duration lease(Duration lease, String subject) {
        return between(lease, SHORTEST_LEASE, subject, DEFAULT_LEASE);
    }

    /**
     * @throws IllegalArgumentException if the timeout is shorter than 1 ms or longer than {@link TimeLimits#MAX_LEASE}
     */
    public static Duration commandTimeout(Duration timeout, String subject) {
        return between(timeout, SHORTEST_TIMEOUT, subject, DEFAULT_COMMAND_TIMEOUT);
    }

    /**
     * @throws IllegalArgumentException if the timeout is shorter than 1 ms or longer than {@link TimeLimits#MAX_LEASE}
     */
    public static Duration syncTimeout(Duration timeout, String subject) {
        return between(timeout, SHORTEST_TIMEOUT, subject, DEFAULT_SYNC_TIMEOUT);
    }

    /**
     * @throws IllegalArgumentException if the lifetime is shorter than 1 s or longer than {@link TimeLimits#MAX_LEASE}
     */
    public static Duration fencingCounterLifetime(Duration lifetime, String subject) {
        return between(lifetime, SHORTEST_COUNTER_LIFETIME, subject, DEFAULT_FENCING_COUNTER_LIFETIME);
    }

    /**
     * @throws IllegalArgumentException if the wait is negative or longer than {@link TimeLimits#MAX_LEASE}
     */
    public static Duration defaultWait(Duration wait, String subject) {
        return between(wait, Duration.ZERO, subject, DEFAULT_WAIT);
    }

    /**
     * @throws IllegalArgumentException if the count is negative, or positive in REDLOCK mode
     */
    public static int syncReplicas(int replicas, RedisMode mode, String subject) {
        if (replicas < 0) {
            throw notReplicas(subject, null);
        }
        if (replicas > 0 && mode == RedisMode.REDLOCK) {
            throw new IllegalArgumentException(subject + " cannot be combined with REDLOCK: its independent masters"
                    + " have no replicas to wait for. Use one or the other.");
        }
        return replicas;
    }

    /**
     * @param text the count as configured
     * @throws IllegalArgumentException if it is not a whole number, is negative, or is positive in REDLOCK mode
     */
    public static int syncReplicas(String text, RedisMode mode, String subject) {
        int replicas;
        try {
            replicas = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw notReplicas(subject, e);
        }
        return syncReplicas(replicas, mode, subject);
    }

    private static IllegalArgumentException notReplicas(String subject, Exception cause) {
        return new IllegalArgumentException(subject + " is not a number of replicas; use 0 to turn replica"
                + " acknowledgement off, or how many replicas must confirm an acquisition, such as 1", cause);
    }

    /**
     * @throws IllegalArgumentException if the mode is null
     */
    public static RedisMode mode(RedisMode mode, String subject) {
        if (mode == null) {
            throw new IllegalArgumentException(subject + " is missing; choose one of STANDALONE, SENTINEL, CLUSTER,"
                    + " REDLOCK");
        }
        return mode;
    }

    private static Duration between(Duration value, Duration shortest, String subject, Duration example) {
        if (value == null || value.compareTo(shortest) < 0) {
            throw new IllegalArgumentException(subject + " is "
                    + (value == null ? "missing" : value.isNegative() ? "negative" : "too short")
                    + "; it must be at least " + Durations.format(shortest) + ", for example " + Durations.format(example));
        }
        return TimeLimits.requireAtMostMax(subject, value, "the lock manager");
    }
}
