package dev.locksmith.internal.cdi;

import dev.locksmith.internal.lock.Durations;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.internal.redis.RedisUris;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The application-wide settings of the CDI {@code LockManager}, read from configuration and
 * checked when the container starts, so a bad value fails the deployment instead of the first
 * locked call.
 *
 * @param redisUri       the URI or comma list, as configured (may carry credentials: never print it)
 * @param mode           how to reach Redis
 * @param syncReplicas   replicas that must acknowledge an acquisition
 * @param syncTimeout    how long to wait for them
 * @param commandTimeout how long one Redis command may take
 * @param keyPrefix      the start of every key
 * @param leaseTime      the watchdog lease
 * @param waitTime       the default wait of {@code @Locked}
 * @param executor       JNDI name of the watchdog's managed scheduler
 * @param fenceLifetime  how long a fencing counter lives
 * @param threadFactory  JNDI name of the managed thread factory for Redis I/O threads
 */
record LocksmithSettings(String redisUri, RedisMode mode, int syncReplicas, Duration syncTimeout,
                         Duration commandTimeout, String keyPrefix, Duration leaseTime, Duration waitTime,
                         String executor, Duration fenceLifetime, String threadFactory) {
    private static final Duration SHORTEST_LEASE = Duration.ofMillis(100);

    /**
     * @param values where settings come from
     * @return the checked settings
     * @throws IllegalArgumentException naming the first bad key, its value and the fix
     */
    static LocksmithSettings read(ConfigValues values) {
        RedisMode mode = mode(values);
        String uri = ConfigKey.REDIS_URI.read(values);
        try {
            RedisUris.parse(uri, mode);
        } catch (IllegalArgumentException e) {
            // RedisUris masks any password in its message.
            throw new IllegalArgumentException(ConfigKey.REDIS_URI.key() + ": " + e.getMessage(), e);
        }
        int replicas = syncReplicas(values);
        Duration syncTimeout = duration(values, ConfigKey.SYNC_TIMEOUT, Duration.ofMillis(1));
        Duration commandTimeout = duration(values, ConfigKey.COMMAND_TIMEOUT, Duration.ofMillis(1));
        Duration lease = duration(values, ConfigKey.LEASE_TIME, SHORTEST_LEASE);
        Duration wait = duration(values, ConfigKey.WAIT_TIME, Duration.ZERO);
        String prefix = ConfigKey.KEY_PREFIX.read(values);
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException(ConfigKey.KEY_PREFIX.key() + " = '" + prefix + "' must not contain"
                    + " '{' or '}': Locksmith puts each lock name in braces to keep its keys in one cluster slot."
                    + " Use for example " + ConfigKey.KEY_PREFIX.defaultValue());
        }
        Duration fenceLifetime = duration(values, ConfigKey.FENCING_COUNTER_LIFETIME, Duration.ofSeconds(1));
        return new LocksmithSettings(uri, mode, replicas, syncTimeout, commandTimeout, prefix, lease, wait,
                ConfigKey.EXECUTOR.read(values), fenceLifetime, ConfigKey.THREAD_FACTORY.read(values));
    }

    /**
     * @return a builder with these settings; the caller adds the container's threads and builds
     */
    Locksmith.Builder builder() {
        return Locksmith.builder()
                .redisUri(redisUri)
                .mode(mode)
                .syncReplicas(syncReplicas, syncTimeout)
                .commandTimeout(commandTimeout)
                .keyPrefix(keyPrefix)
                .leaseTime(leaseTime)
                .fencingCounterLifetime(fenceLifetime);
    }

    /**
     * @return the Redis address without credentials, for log lines and messages
     */
    String redactedUri() {
        return RedisUris.redacted(redisUri);
    }

    private static RedisMode mode(ConfigValues values) {
        String text = ConfigKey.REDIS_MODE.read(values);
        try {
            return RedisMode.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ConfigKey.REDIS_MODE.key() + " = '" + text + "' is not a mode; use one of "
                    + Arrays.stream(RedisMode.values()).map(m -> m.name().toLowerCase(Locale.ROOT))
                    .collect(Collectors.joining(", ")), e);
        }
    }

    private static int syncReplicas(ConfigValues values) {
        String text = ConfigKey.SYNC_REPLICAS.read(values);
        try {
            int replicas = Integer.parseInt(text.trim());
            if (replicas >= 0) {
                return replicas;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(ConfigKey.SYNC_REPLICAS.key() + " = '" + text + "' is not a number of"
                + " replicas; use 0 to turn replica acknowledgement off, or how many replicas must confirm, such as 1");
    }

    private static Duration duration(ConfigValues values, ConfigKey key, Duration minimum) {
        String text = key.read(values);
        Duration duration;
        try {
            duration = Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key.key() + ": " + e.getMessage() + " (default " + key.defaultValue() + ")", e);
        }
        if (duration.compareTo(minimum) < 0) {
            throw new IllegalArgumentException(key.key() + " = '" + text + "' is " + (duration.isNegative() ? "negative"
                    : "too short") + "; it must be at least " + Durations.format(minimum) + ", for example "
                    + key.defaultValue());
        }
        return duration;
    }
}
