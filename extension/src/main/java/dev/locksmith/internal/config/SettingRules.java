package dev.locksmith.internal.config;

import dev.locksmith.RedisMode;
import java.time.Duration;
import java.util.List;

/**
 * Every manager setting's check, written once for the two ways to configure a manager:
 * {@code Locksmith.builder()} and MicroProfile Config ({@code locksmith.*}), both through
 * {@link SettingsDraft#check()}. Each message starts with the setting and its value (such as
 * {@code Lease time PT0.05S}) and ends with the fix; Config puts its key and text in front. The
 * defaults are {@link Setting}'s, typed here for the builder.
 */
public final class SettingRules {
    /** Where Redis is unless told otherwise. */
    public static final String DEFAULT_REDIS_URI = Setting.REDIS_URI.defaultAs(String.class);
    /** How to reach it unless told otherwise. */
    public static final RedisMode DEFAULT_MODE = Setting.MODE.defaultAs(RedisMode.class);
    /** The start of every key. */
    public static final String DEFAULT_KEY_PREFIX = Setting.KEY_PREFIX.defaultAs(String.class);
    /** The watchdog lease, renewed every third of it. */
    public static final Duration DEFAULT_LEASE = Setting.LEASE_TIME.defaultAs(Duration.class);
    /** How long one Redis command may take. */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Setting.COMMAND_TIMEOUT.defaultAs(Duration.class);
    /** How long an acquisition waits for its replicas. */
    public static final Duration DEFAULT_SYNC_TIMEOUT = Setting.SYNC_TIMEOUT.defaultAs(Duration.class);
    /** How long a fencing counter stays in Redis after it was created. */
    public static final Duration DEFAULT_FENCING_COUNTER_LIFETIME = Setting.FENCING_COUNTER_LIFETIME.defaultAs(Duration.class);
    /** How long {@code @Locked} waits unless it says otherwise. */
    public static final Duration DEFAULT_WAIT = Setting.DEFAULT_WAIT.defaultAs(Duration.class);
    /** Whether metrics and spans are recorded unless told otherwise. */
    public static final boolean DEFAULT_TELEMETRY = Setting.TELEMETRY.defaultAs(Boolean.class);
    /** Whether metrics label locks with their resolved names unless told otherwise. */
    public static final boolean DEFAULT_RESOLVED_NAMES = Setting.TELEMETRY_RESOLVED_NAMES.defaultAs(Boolean.class);

    private static final Duration SHORTEST_LEASE = Duration.ofMillis(100);
    private static final Duration SHORTEST_TIMEOUT = Duration.ofMillis(1);
    private static final Duration SHORTEST_COUNTER_LIFETIME = Duration.ofSeconds(1);

    private SettingRules() {
    }

    /**
     * @throws SettingException if the prefix is null or has a brace
     */
    static String keyPrefix(String prefix) {
        String subject = Setting.KEY_PREFIX.subject(prefix);
        if (prefix == null) {
            throw new SettingException(Setting.KEY_PREFIX, subject + " is missing; use for example " + DEFAULT_KEY_PREFIX);
        }
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new SettingException(Setting.KEY_PREFIX, subject + " must not contain '{' or '}': Locksmith puts"
                    + " each lock name in braces to keep its keys in one cluster slot. Use for example " + DEFAULT_KEY_PREFIX);
        }
        return prefix;
    }

    /**
     * @throws SettingException if the lease is shorter than 100 ms or longer than {@link TimeLimits#MAX_LEASE}
     */
    static Duration lease(Duration lease) {
        return between(Setting.LEASE_TIME, lease, SHORTEST_LEASE);
    }

    /**
     * @throws SettingException if the timeout is shorter than 1 ms or longer than {@link TimeLimits#MAX_LEASE}
     */
    static Duration commandTimeout(Duration timeout) {
        return between(Setting.COMMAND_TIMEOUT, timeout, SHORTEST_TIMEOUT);
    }

    /**
     * @param commandTimeout the checked command timeout, which {@code WAIT} must finish within
     * @throws SettingException if the timeout is shorter than 1 ms, or not shorter than the command timeout
     */
    static Duration syncTimeout(Duration timeout, Duration commandTimeout) {
        between(Setting.SYNC_TIMEOUT, timeout, SHORTEST_TIMEOUT);
        if (timeout.compareTo(commandTimeout) >= 0) {
            throw new SettingException(Setting.SYNC_TIMEOUT, Setting.SYNC_TIMEOUT.subject(timeout) + " is not shorter"
                    + " than the command timeout " + commandTimeout + ": the WAIT for the replicas would fail as a"
                    + " timed-out command first. Use a shorter sync timeout, for example "
                    + Durations.format(DEFAULT_SYNC_TIMEOUT) + ", or a longer command timeout");
        }
        return timeout;
    }

    /**
     * @throws SettingException if the lifetime is shorter than 1 s or longer than {@link TimeLimits#MAX_LEASE}
     */
    static Duration fencingCounterLifetime(Duration lifetime) {
        return between(Setting.FENCING_COUNTER_LIFETIME, lifetime, SHORTEST_COUNTER_LIFETIME);
    }

    /**
     * @throws SettingException if the wait is negative or longer than {@link TimeLimits#MAX_LEASE}
     */
    static Duration defaultWait(Duration wait) {
        return between(Setting.DEFAULT_WAIT, wait, Duration.ZERO);
    }

    /**
     * @throws SettingException if the count is negative, or positive in REDLOCK mode
     */
    static int syncReplicas(int replicas, RedisMode mode) {
        if (replicas < 0) {
            throw new SettingException(Setting.SYNC_REPLICAS, Setting.SYNC_REPLICAS.subject(replicas) + " is not a"
                    + " number of replicas; use 0 to turn replica acknowledgement off, or how many replicas must"
                    + " confirm an acquisition, such as 1");
        }
        if (replicas > 0 && mode == RedisMode.REDLOCK) {
            throw new SettingException(Setting.SYNC_REPLICAS, Setting.SYNC_REPLICAS.subject(replicas) + " cannot be"
                    + " combined with REDLOCK: its independent masters have no replicas to wait for. Use one or the other.");
        }
        return replicas;
    }

    /**
     * @throws SettingException if the mode is null
     */
    static RedisMode mode(RedisMode mode) {
        if (mode == null) {
            throw new SettingException(Setting.MODE, Setting.MODE.subject(null) + " is missing; choose one of"
                    + " STANDALONE, SENTINEL, CLUSTER, REDLOCK");
        }
        return mode;
    }

    /**
     * @param patterns the patterns, or null for none
     * @return them, or an empty list for null
     * @throws SettingException if a pattern is null or blank
     */
    static List<String> namePatterns(List<String> patterns) {
        if (patterns == null) {
            return List.of();
        }
        for (String pattern : patterns) {
            if (pattern == null || pattern.isBlank()) {
                throw new SettingException(Setting.TELEMETRY_NAME_PATTERNS, Setting.TELEMETRY_NAME_PATTERNS.subject(patterns)
                        + " has a blank pattern ('" + pattern + "'); write each as a lock name with * for any"
                        + " characters, such as stock:*");
            }
        }
        return List.copyOf(patterns);
    }

    private static Duration between(Setting setting, Duration value, Duration shortest) {
        String subject = setting.subject(value);
        if (value == null || value.compareTo(shortest) < 0) {
            throw new SettingException(setting, subject + " is "
                    + (value == null ? "missing" : value.isNegative() ? "negative" : "too short")
                    + "; it must be at least " + Durations.format(shortest)
                    + ", for example " + setting.defaultText());
        }
        try {
            return TimeLimits.requireAtMostMax(subject, value, "the lock manager");
        } catch (IllegalArgumentException e) {
            throw new SettingException(setting, e.getMessage());
        }
    }
}
