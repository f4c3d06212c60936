package dev.locksmith.internal.cdi;

import dev.locksmith.internal.config.Setting;

/**
 * Every MicroProfile Config key Locksmith reads, with its default (the builder's own, from
 * {@link Setting}, where it shares the setting). This is the one place the
 * code names them; a test checks each against {@code docs/configuration.md}. Per-use overrides of
 * {@code @Locked} are read by {@link LockedOverrides}.
 */
public enum ConfigKey {
    /** One Redis URI, or a comma list of cluster seeds or RedLock masters. */
    REDIS_URI("locksmith.redis.uri", Setting.REDIS_URI),
    /** {@code standalone}, {@code sentinel}, {@code cluster} or {@code redlock}. */
    REDIS_MODE("locksmith.redis.mode", Setting.MODE),
    /** Replicas that must acknowledge an acquisition ({@code WAIT}) before it succeeds. */
    SYNC_REPLICAS("locksmith.redis.sync-replicas", Setting.SYNC_REPLICAS),
    /** How long an acquisition waits for those replicas. */
    SYNC_TIMEOUT("locksmith.redis.sync-timeout", Setting.SYNC_TIMEOUT),
    /** How long one Redis command may take before it fails. */
    COMMAND_TIMEOUT("locksmith.redis.command-timeout", Setting.COMMAND_TIMEOUT),
    /** Whether the deployment fails when Redis cannot be reached at startup, instead of connecting in the background. */
    REDIS_FAIL_FAST("locksmith.redis.fail-fast", "false"),
    /** The start of every key Locksmith writes. */
    KEY_PREFIX("locksmith.key-prefix", Setting.KEY_PREFIX),
    /** The watchdog lease, renewed every third of it. */
    LEASE_TIME("locksmith.lease-time", Setting.LEASE_TIME),
    /** How long each lock name's fencing counter stays in Redis after it was created. */
    FENCING_COUNTER_LIFETIME("locksmith.fencing-counter-lifetime", Setting.FENCING_COUNTER_LIFETIME),
    /** How long {@code @Locked} waits when its {@code waitTime} is -1. */
    WAIT_TIME("locksmith.wait-time", Setting.DEFAULT_WAIT),
    /** JNDI name of the {@code ManagedScheduledExecutorService} the watchdog runs on. */
    EXECUTOR("locksmith.executor", "java:comp/DefaultManagedScheduledExecutorService"),
    /** JNDI name of the {@code ManagedThreadFactory} that makes Redis I/O threads. */
    THREAD_FACTORY("locksmith.thread-factory", "java:comp/DefaultManagedThreadFactory"),
    /** Whether metrics and spans go to the application's OpenTelemetry (MicroProfile Telemetry). */
    TELEMETRY_ENABLED("locksmith.telemetry.enabled", Setting.TELEMETRY),
    /** Comma list of name patterns ({@code *} for any characters) that label locks in metrics. */
    TELEMETRY_NAME_PATTERNS("locksmith.telemetry.name-patterns", Setting.TELEMETRY_NAME_PATTERNS),
    /** Whether metrics label locks with their resolved names (unbounded cardinality). */
    TELEMETRY_RESOLVED_NAMES("locksmith.telemetry.resolved-names", Setting.TELEMETRY_RESOLVED_NAMES),
    /** How holders describe their application to other processes; by default the server's name for it. */
    APPLICATION_NAME("locksmith.application-name", Setting.APPLICATION_NAME),
    /** Where fenced writes are checked: a JNDI name, or the name of a {@code DataSource} CDI bean. */
    FENCING_DATA_SOURCE("locksmith.fencing.data-source", "java:comp/DefaultDataSource"),
    /** The fence table, an SQL identifier. */
    FENCING_TABLE("locksmith.fencing.table", dev.locksmith.Fence.DEFAULT_TABLE),
    /** Whether the fence table is created at startup when it is missing. */
    FENCING_CREATE_TABLE("locksmith.fencing.create-table", "true");

    private final String key;
    private final String defaultValue;
    private final Setting setting; // null for a key the builder has no setting for

    ConfigKey(String key, String defaultValue) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.setting = null;
    }

    ConfigKey(String key, Setting setting) {
        this.key = key;
        this.defaultValue = setting.defaultText();
        this.setting = setting;
    }

    /**
     * @param setting a setting the builder shares with Config
     * @return the key that configures it
     * @throws IllegalStateException if no key does, which is a bug in this enum
     */
    static ConfigKey of(Setting setting) {
        for (ConfigKey key : values()) {
            if (key.setting == setting) {
                return key;
            }
        }
        throw new IllegalStateException("No MicroProfile Config key configures " + setting);
    }

    /**
     * @return the property name, such as {@code locksmith.redis.uri}
     */
    public String key() {
        return key;
    }

    /**
     * @return the value used when the key is not set
     */
    public String defaultValue() {
        return defaultValue;
    }

    /**
     * @param values where settings come from
     * @return the configured value, or the default
     */
    String read(ConfigValues values) {
        return values.get(key).map(String::trim).filter(value -> !value.isEmpty()).orElse(defaultValue);
    }
}
