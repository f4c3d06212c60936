package dev.locksmith;

import dev.locksmith.internal.classpath.LettuceNettyMatch;
import dev.locksmith.internal.manager.ConnectingLockManager;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.internal.config.LockSettings;
import dev.locksmith.internal.config.SettingRules;
import dev.locksmith.internal.config.SettingsDraft;
import dev.locksmith.internal.config.TelemetrySettings;
import dev.locksmith.internal.redis.RedisUris;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;

/**
 * Builds a {@link LockManager} in plain Java (Java SE, tests, code outside CDI). In a CDI
 * application inject {@code LockManager} instead; it is configured through MicroProfile Config.
 *
 * <pre>{@code
 * try (LockManager locks = Locksmith.builder()
 *         .redisUri("redis://127.0.0.1:6379")
 *         .leaseTime(Duration.ofSeconds(30))
 *         .build()) {
 *     locks.callWithLock("nightly-report", Duration.ofSeconds(5), report::run);
 * }
 * }</pre>
 */
public final class Locksmith {
    private Locksmith() {
    }

    /**
     * @return a builder with the defaults: {@code redis://localhost:6379}, prefix {@code locksmith:},
     *         30 s lease, standalone mode, no replica acknowledgement
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Collects settings; {@link #build()} checks them all and connects.
     */
    public static final class Builder {
        private String redisUri = SettingRules.DEFAULT_REDIS_URI;
        private String keyPrefix = SettingRules.DEFAULT_KEY_PREFIX;
        private Duration leaseTime = SettingRules.DEFAULT_LEASE;
        private RedisMode mode = SettingRules.DEFAULT_MODE;
        private int syncReplicas;
        private Duration syncTimeout = SettingRules.DEFAULT_SYNC_TIMEOUT;
        private Duration commandTimeout = SettingRules.DEFAULT_COMMAND_TIMEOUT;
        private ScheduledExecutorService watchdogScheduler;
        private Duration fencingCounterLifetime = SettingRules.DEFAULT_FENCING_COUNTER_LIFETIME;
        private ThreadFactory threadFactory;
        private boolean telemetry = SettingRules.DEFAULT_TELEMETRY;
        private Object openTelemetry;
        private List<String> telemetryNamePatterns = List.of();
        private boolean telemetryResolvedNames = SettingRules.DEFAULT_RESOLVED_NAMES;
        private String applicationName;
        private boolean failFast = true;

        private Builder() {
        }

        /**
         * @param uri {@code redis://}, {@code rediss://} or {@code redis-sentinel://} URI, or a comma
         *            list of them for {@link RedisMode#CLUSTER} seeds and {@link RedisMode#REDLOCK} masters
         * @return this builder
         */
        public Builder redisUri(String uri) {
            this.redisUri = uri;
            return this;
        }

        /**
         * @param prefix the start of every key Locksmith writes; default {@code locksmith:}
         * @return this builder
         */
        public Builder keyPrefix(String prefix) {
            this.keyPrefix = prefix;
            return this;
        }

        /**
         * @param lease the watchdog's lease, renewed every third of it while a lock is held; at
         *              least 100 ms; default 30 s. This is how long a lock outlives a dead JVM.
         * @return this builder
         */
        public Builder leaseTime(Duration lease) {
            this.leaseTime = lease;
            return this;
        }

        /**
         * @param mode how to reach Redis; default {@link RedisMode#STANDALONE}
         * @return this builder
         */
        public Builder mode(RedisMode mode) {
            this.mode = mode;
            return this;
        }

        /**
         * After each acquisition, waits ({@code WAIT}) until {@code replicas} replicas have the
         * lock, so a failover to one of them does not lose it. Fewer acknowledgements within the
         * timeout release the lock again and fail the acquisition with {@link LockException}. In
         * {@link RedisMode#CLUSTER} the replicas counted are those of the master of the lock's own
         * slot. Not with {@link RedisMode#REDLOCK}, whose masters have no replicas.
         *
         * @param replicas how many replicas must acknowledge; 0 turns this off
         * @param timeout  how long to wait for them: at least 1 ms and shorter than the
         *                 {@link #commandTimeout(Duration) command timeout}; not used with 0 replicas
         * @return this builder
         */
        public Builder syncReplicas(int replicas, Duration timeout) {
            this.syncReplicas = replicas;
            this.syncTimeout = timeout;
            return this;
        }

        /**
         * @param timeout how long one Redis command may take before it fails with
         *                {@link LockException}; default 5 s
         * @return this builder
         */
        public Builder commandTimeout(Duration timeout) {
            this.commandTimeout = timeout;
            return this;
        }

        /**
         * @param scheduler where the watchdog renews leases, typically the container's
         *                  {@code ManagedScheduledExecutorService}; Locksmith never shuts it down.
         *                  Null (the default) uses a private daemon thread.
         * @return this builder
         */
        public Builder watchdogScheduler(ScheduledExecutorService scheduler) {
            this.watchdogScheduler = scheduler;
            return this;
        }

        /**
         * How long each lock name's fencing counter stays in Redis after it was created. Each name
         * that was ever locked keeps one small key for this long (about 100 bytes). When it
         * expires, the next acquisition starts the counter again from the Redis server's clock in
         * microseconds, so tokens still increase as long as that clock does not go back; a shorter
         * lifetime bounds memory, and the only cost is that guarantee resting on the clock more often.
         *
         * @param lifetime at least 1 s; default 24 h
         * @return this builder
         */
        public Builder fencingCounterLifetime(Duration lifetime) {
            this.fencingCounterLifetime = lifetime;
            return this;
        }

        /**
         * @param factory where the threads of Redis I/O and events come from, typically the
         *                container's {@code ManagedThreadFactory} so the server knows and manages
         *                them; null (the default) lets the Redis client make its own daemon threads
         * @return this builder
         */
        public Builder threadFactory(ThreadFactory factory) {
            this.threadFactory = factory;
            return this;
        }

        /**
         * Records metrics and spans through OpenTelemetry: wait and hold durations, acquisitions,
         * timeouts, lost leases, renewals, Redis errors, locks held and threads waiting (the list
         * is in {@code docs/observability.md}). Without it nothing goes to OpenTelemetry; Flight
         * Recorder events are recorded either way.
         *
         * @param openTelemetry an {@code io.opentelemetry.api.OpenTelemetry}, such as MicroProfile
         *                      Telemetry's bean; typed {@code Object} so that applications without
         *                      the OpenTelemetry API can use this class; null for none
         * @return this builder
         */
        public Builder openTelemetry(Object openTelemetry) {
            this.openTelemetry = openTelemetry;
            return this;
        }

        /**
         * @param enabled false to record no metrics and spans even with an OpenTelemetry (default true)
         * @return this builder
         */
        public Builder telemetry(boolean enabled) {
            this.telemetry = enabled;
            return this;
        }

        /**
         * Names locks in metrics and spans by pattern, so that their number of series stays
         * bounded: a lock whose name matches a pattern ({@code *} stands for any characters, such
         * as {@code stock:*}) is labelled with the pattern, the first that matches; any other
         * lock as {@code other}. A {@code @Locked} method's locks are labelled with its template.
         *
         * @param patterns name patterns, in order, none of them blank; null or empty for none
         * @return this builder
         */
        public Builder telemetryNamePatterns(List<String> patterns) {
            this.telemetryNamePatterns = patterns == null ? null : new ArrayList<>(patterns);
            return this;
        }

        /**
         * @param enabled true to label metrics and spans with each lock's resolved name: one
         *                series per name, so only for a bounded set of names (default false)
         * @return this builder
         */
        public Builder telemetryResolvedNames(boolean enabled) {
            this.telemetryResolvedNames = enabled;
            return this;
        }

        /**
         * @param name the application's name, part of how {@link LockManager#describe(String)}
         *             describes a holder to other processes; null for none
         * @return this builder
         */
        public Builder applicationName(String name) {
            this.applicationName = name;
            return this;
        }

        /**
         * Whether {@link #build()} fails when Redis cannot be reached (the default), or returns a
         * manager that keeps connecting in the background. Such a manager exists whether Redis is up
         * or down: it connects in {@code build()} when Redis answers, and otherwise tries again after
         * 1 s, then after pauses that double up to 10 s, until it connects or is closed. Until it has
         * connected, each of its calls fails at once with a {@link LockException} that says why.
         * CDI applications get such a manager (MicroProfile Config key {@code locksmith.redis.fail-fast},
         * default false there).
         *
         * @param failFast false to connect in the background while Redis cannot be reached
         * @return this builder
         */
        public Builder failFast(boolean failFast) {
            this.failFast = failFast;
            return this;
        }

        /**
         * Checks every setting and connects to Redis; with {@link #failFast(boolean) failFast(false)},
         * keeps connecting in the background when Redis cannot be reached yet.
         *
         * @return a manager, connected unless {@code failFast(false)} and Redis did not answer; close it when done
         * @throws IllegalArgumentException naming the first bad setting and how to fix it
         * @throws LockException            if Redis cannot be reached (unless {@code failFast(false)}), or if the Lettuce on the class path
         *                                  cannot run on its Netty (Lettuce 7 on Netty 4.1), naming the fix
         */
        public LockManager build() {
            LettuceNettyMatch.problem().ifPresent(problem -> {
                throw new LockException(problem);
            });
            List<RedisURI> uris = new SettingsDraft(redisUri, mode, syncReplicas, syncTimeout, commandTimeout, keyPrefix,
                    leaseTime, fencingCounterLifetime, SettingRules.DEFAULT_WAIT, telemetryNamePatterns).check();
            var settings = new LockSettings(uris, mode, keyPrefix, leaseTime, commandTimeout,
                    syncReplicas, syncTimeout == null ? Duration.ZERO : syncTimeout, watchdogScheduler,
                    fencingCounterLifetime, threadFactory, new TelemetrySettings(telemetry, openTelemetry,
                    telemetryNamePatterns == null ? List.of() : telemetryNamePatterns, telemetryResolvedNames,
                    applicationName));
            return failFast ? DefaultLockManager.connect(settings)
                    : ConnectingLockManager.start(settings, mode + " " + RedisUris.redacted(uris));
        }
    }
}
