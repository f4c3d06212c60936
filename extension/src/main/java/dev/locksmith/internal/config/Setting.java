package dev.locksmith.internal.config;

import dev.locksmith.RedisMode;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Every setting a manager shares between {@code Locksmith.builder()} and MicroProfile Config: how
 * a message names it, and its default, written once here for both. {@link SettingsDraft#check()}
 * names the setting it refuses, so that Config can put its own key and text in front of the
 * builder's message.
 */
public enum Setting {
    /** One Redis URI, or a comma list of cluster seeds or RedLock masters. */
    REDIS_URI("Redis URI", "redis://localhost:6379"),
    /** How to reach Redis. */
    MODE("Redis mode", RedisMode.STANDALONE),
    /** Replicas that must acknowledge an acquisition. */
    SYNC_REPLICAS("Sync replicas", 0),
    /** How long an acquisition waits for its replicas. */
    SYNC_TIMEOUT("Sync timeout", Duration.ofMillis(100)),
    /** How long one Redis command may take. */
    COMMAND_TIMEOUT("Command timeout", Duration.ofSeconds(5)),
    /** The start of every key. */
    KEY_PREFIX("Key prefix", "locksmith:"),
    /** The watchdog lease, renewed every third of it. */
    LEASE_TIME("Lease time", Duration.ofSeconds(30)),
    /** How long a fencing counter stays in Redis after it was created. */
    FENCING_COUNTER_LIFETIME("Fencing counter lifetime", Duration.ofHours(24)),
    /** How long {@code @Locked} waits unless it says otherwise (Config only: the builder's calls name their wait). */
    DEFAULT_WAIT("Default wait", Duration.ofSeconds(30)),
    /** Whether metrics and spans are recorded. */
    TELEMETRY("Telemetry", true),
    /** Name patterns that label locks in metrics. */
    TELEMETRY_NAME_PATTERNS("Telemetry name patterns", List.of()),
    /** Whether metrics label locks with their resolved names. */
    TELEMETRY_RESOLVED_NAMES("Telemetry resolved names", false),
    /** How holders describe their application to other processes; empty for none (CDI: the server's name for it). */
    APPLICATION_NAME("Application name", "");

    private final String label;
    private final Object defaultValue;

    Setting(String label, Object defaultValue) {
        this.label = label;
        this.defaultValue = defaultValue;
    }

    /**
     * @return how messages name it, such as {@code Lease time}
     */
    public String label() {
        return label;
    }

    /**
     * @return the value used when nobody sets it: a {@link Duration}, {@link RedisMode}, {@code Integer},
     *         {@code Boolean}, {@code String} or {@code List<String>}
     */
    public Object defaultValue() {
        return defaultValue;
    }

    /**
     * @return the default as configuration writes it, such as {@code 30s}, {@code standalone} or {@code 0}
     */
    public String defaultText() {
        if (defaultValue instanceof Duration duration) {
            return Durations.format(duration);
        }
        if (defaultValue instanceof RedisMode mode) {
            return mode.name().toLowerCase(Locale.ROOT);
        }
        if (defaultValue instanceof List<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        return String.valueOf(defaultValue);
    }

    /**
     * @param value the value as the builder got it
     * @return the start of a message about it, such as {@code Lease time PT0.05S} or {@code Key prefix 'a{'}
     */
    String subject(Object value) {
        return label + " " + (value instanceof String text ? "'" + text + "'" : value);
    }

    <T> T defaultAs(Class<T> type) {
        return type.cast(defaultValue);
    }
}
