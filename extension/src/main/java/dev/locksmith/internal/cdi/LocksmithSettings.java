package dev.locksmith.internal.cdi;

import dev.locksmith.internal.config.Durations;
import dev.locksmith.internal.config.SettingException;
import dev.locksmith.internal.config.SettingsDraft;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.internal.redis.RedisUris;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
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
 * @param telemetry      whether metrics and spans are recorded
 * @param namePatterns   name patterns that label locks in metrics
 * @param resolvedNames  whether metrics label locks with their resolved names
 * @param applicationName the configured application name, or "" for the server's name for it
 * @param failFast       whether the deployment fails when Redis cannot be reached at startup
 */
record LocksmithSettings(String redisUri, RedisMode mode, int syncReplicas, Duration syncTimeout,
                         Duration commandTimeout, String keyPrefix, Duration leaseTime, Duration waitTime,
                         String executor, Duration fenceLifetime, String threadFactory, boolean telemetry,
                         List<String> namePatterns, boolean resolvedNames, String applicationName,
                         boolean failFast) {
    /** Where a Quarkus application names its Redis; Locksmith's default when it has no URI of its own. */
    static final String QUARKUS_REDIS_HOSTS = "quarkus.redis.hosts";

    /**
     * @param values where settings come from
     * @return the checked settings
     * @throws IllegalArgumentException naming the first bad key, its value and the fix
     */
    static LocksmithSettings read(ConfigValues values) {
        RedisMode mode = mode(values);
        String uri = redisUri(values);
        int replicas = replicas(values);
        SettingsDraft draft = new SettingsDraft(uri, mode, replicas, duration(values, ConfigKey.SYNC_TIMEOUT),
                duration(values, ConfigKey.COMMAND_TIMEOUT), ConfigKey.KEY_PREFIX.read(values),
                duration(values, ConfigKey.LEASE_TIME), duration(values, ConfigKey.FENCING_COUNTER_LIFETIME),
                duration(values, ConfigKey.WAIT_TIME), patterns(values));
        try {
            draft.check();
        } catch (SettingException e) {
            throw new IllegalArgumentException(inFrontOf(e, values), e);
        }
        return new LocksmithSettings(uri, mode, replicas, draft.syncTimeout(), draft.commandTimeout(), draft.keyPrefix(),
                draft.lease(), draft.defaultWait(), ConfigKey.EXECUTOR.read(values), draft.fencingCounterLifetime(),
                ConfigKey.THREAD_FACTORY.read(values), flag(values, ConfigKey.TELEMETRY_ENABLED), draft.namePatterns(),
                flag(values, ConfigKey.TELEMETRY_RESOLVED_NAMES), ConfigKey.APPLICATION_NAME.read(values).trim(),
                flag(values, ConfigKey.REDIS_FAIL_FAST));
    }

    /**
     * @return the builder's message with the key and the configured text in front, such as
     *         {@code locksmith.lease-time = '50ms': Lease time PT0.05S is too short; ...}; for the URI
     *         the key only, since the message shows the URI with its password masked
     */
    private static String inFrontOf(SettingException refused, ConfigValues values) {
        ConfigKey key = ConfigKey.of(refused.setting());
        String where = key == ConfigKey.REDIS_URI ? key.key() : subject(values, key);
        return where + ": " + refused.getMessage();
    }

    /**
     * @return {@code locksmith.redis.uri}, else Quarkus's own {@code quarkus.redis.hosts}, else the default
     */
    private static String redisUri(ConfigValues values) {
        return values.get(ConfigKey.REDIS_URI.key())
                .or(() -> values.get(QUARKUS_REDIS_HOSTS))
                .map(String::trim).filter(uri -> !uri.isEmpty())
                .orElse(ConfigKey.REDIS_URI.defaultValue());
    }

    /**
     * @return a builder with these settings, for a manager that connects in the background while Redis
     *         cannot be reached (the deployment's fail-fast is {@link LockManagerLifecycle}'s); the
     *         caller adds the container's threads and builds
     */
    Locksmith.Builder builder() {
        return Locksmith.builder()
                .failFast(false)
                .redisUri(redisUri)
                .mode(mode)
                .syncReplicas(syncReplicas, syncTimeout)
                .commandTimeout(commandTimeout)
                .keyPrefix(keyPrefix)
                .leaseTime(leaseTime)
                .fencingCounterLifetime(fenceLifetime)
                .telemetry(telemetry)
                .telemetryNamePatterns(namePatterns)
                .telemetryResolvedNames(resolvedNames);
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

    private static boolean flag(ConfigValues values, ConfigKey key) {
        String text = key.read(values).trim();
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new IllegalArgumentException(subject(values, key) + " is not true or false (default "
                + key.defaultValue() + ")");
    }

    /**
     * @return the comma list's patterns, trimmed; a blank one is kept, for the check to refuse
     */
    private static List<String> patterns(ConfigValues values) {
        String text = ConfigKey.TELEMETRY_NAME_PATTERNS.read(values);
        return text.isBlank() ? List.of() : Arrays.stream(text.split(",", -1)).map(String::trim).toList();
    }

    private static int replicas(ConfigValues values) {
        String text = ConfigKey.SYNC_REPLICAS.read(values);
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(subject(values, ConfigKey.SYNC_REPLICAS) + " is not a number of replicas;"
                    + " use 0 to turn replica acknowledgement off, or how many replicas must confirm an acquisition,"
                    + " such as 1", e);
        }
    }

    /**
     * @return the key and its value as configured, such as {@code locksmith.lease-time = '50ms'}
     */
    private static String subject(ConfigValues values, ConfigKey key) {
        return key.key() + " = '" + key.read(values) + "'";
    }

    private static Duration duration(ConfigValues values, ConfigKey key) {
        try {
            return Durations.parse(key.read(values));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key.key() + ": " + e.getMessage() + " (default " + key.defaultValue() + ")", e);
        }
    }
}
