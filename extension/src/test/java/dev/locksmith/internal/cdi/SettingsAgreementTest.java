package dev.locksmith.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.internal.config.SettingRules;
import dev.locksmith.internal.config.SettingsDraft;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The builder and MicroProfile Config give the same answer to the same bad value: Config's
 * message is the builder's with the key and the configured text in front
 * ({@code locksmith.lease-time = '50ms': Lease time PT0.05S is too short; ...}). No Redis is needed:
 * every value here is refused before anything connects.
 */
class SettingsAgreementTest {

    static Stream<Arguments> badValues() {
        return Stream.of(
                bad("a lease below 100 ms", "too short", b -> b.leaseTime(Duration.ofMillis(50)),
                        "locksmith.lease-time", "50ms"),
                bad("a lease of zero", "too short", b -> b.leaseTime(Duration.ZERO), "locksmith.lease-time", "0s"),
                bad("a negative lease", "negative", b -> b.leaseTime(Duration.ofSeconds(-1)), "locksmith.lease-time", "-1s"),
                bad("a lease over 100 years", "longest time", b -> b.leaseTime(Duration.ofHours(876_025)),
                        "locksmith.lease-time", "876025h"),
                bad("a command timeout of zero", "too short", b -> b.commandTimeout(Duration.ZERO),
                        "locksmith.redis.command-timeout", "0s"),
                bad("a negative command timeout", "negative", b -> b.commandTimeout(Duration.ofSeconds(-5)),
                        "locksmith.redis.command-timeout", "-5s"),
                bad("a sync timeout of zero with a replica", "too short", b -> b.syncReplicas(1, Duration.ZERO),
                        "locksmith.redis.sync-timeout", "0s", "locksmith.redis.sync-replicas", "1"),
                bad("a sync timeout as long as the command timeout", "not shorter than the command timeout",
                        b -> b.syncReplicas(1, Duration.ofSeconds(5)),
                        "locksmith.redis.sync-timeout", "5s", "locksmith.redis.sync-replicas", "1"),
                bad("a sync timeout longer than a short command timeout", "or a longer command timeout",
                        b -> b.syncReplicas(1, Duration.ofSeconds(2)).commandTimeout(Duration.ofSeconds(1)),
                        "locksmith.redis.sync-timeout", "2s", "locksmith.redis.sync-replicas", "1",
                        "locksmith.redis.command-timeout", "1s"),
                bad("negative replicas", "not a number of replicas", b -> b.syncReplicas(-1, Duration.ofMillis(100)),
                        "locksmith.redis.sync-replicas", "-1"),
                bad("replicas with REDLOCK", "cannot be combined with REDLOCK",
                        b -> b.syncReplicas(1, Duration.ofMillis(100)).mode(RedisMode.REDLOCK),
                        "locksmith.redis.sync-replicas", "1", "locksmith.redis.mode", "redlock"),
                bad("a prefix with a brace", "must not contain", b -> b.keyPrefix("app{1}:"),
                        "locksmith.key-prefix", "app{1}:"),
                bad("a prefix with a closing brace", "must not contain", b -> b.keyPrefix("app}"),
                        "locksmith.key-prefix", "app}"),
                bad("a fencing counter lifetime below 1 s", "too short",
                        b -> b.fencingCounterLifetime(Duration.ofMillis(500)), "locksmith.fencing-counter-lifetime", "500ms"),
                bad("a negative fencing counter lifetime", "negative",
                        b -> b.fencingCounterLifetime(Duration.ofHours(-1)), "locksmith.fencing-counter-lifetime", "-1h"),
                bad("a blank last name pattern", "blank pattern",
                        b -> b.telemetryNamePatterns(List.of("stock:*", "")), "locksmith.telemetry.name-patterns", "stock:*,"),
                bad("a blank first name pattern", "blank pattern",
                        b -> b.telemetryNamePatterns(List.of("", "orders:*")), "locksmith.telemetry.name-patterns",
                        " , orders:*"),
                bad("a URI of another scheme", "http://nope", b -> b.redisUri("http://nope"),
                        "locksmith.redis.uri", "http://nope"),
                bad("two URIs in standalone mode", "takes one URI",
                        b -> b.redisUri("redis://127.0.0.1:1,redis://127.0.0.1:2"),
                        "locksmith.redis.uri", "redis://127.0.0.1:1,redis://127.0.0.1:2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badValues")
    void configSaysWhatTheBuilderSaysWithItsKeyInFront(String what, String fix, Consumer<Locksmith.Builder> setUp,
                                                       Map<String, String> config) {
        Locksmith.Builder builder = Locksmith.builder();
        setUp.accept(builder);

        Throwable fromBuilder = catchThrowable(builder::build);
        Throwable fromConfig = catchThrowable(() -> LocksmithSettings.read(key -> Optional.ofNullable(config.get(key))));

        assertThat(fromBuilder).as(what).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(fix);
        Map.Entry<String, String> refused = config.entrySet().iterator().next();
        String where = refused.getKey().equals(ConfigKey.REDIS_URI.key()) ? refused.getKey()
                : refused.getKey() + " = '" + refused.getValue().trim() + "'";
        assertThat(fromConfig).as(what).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(where + ": " + fromBuilder.getMessage());
    }

    @Test
    void bothIgnoreTheSyncTimeoutWithoutReplicas() {
        assertThatCode(() -> LocksmithSettings.read(key -> Optional.ofNullable(
                Map.of("locksmith.redis.sync-timeout", "0s").get(key)))).doesNotThrowAnyException();
        assertThatCode(() -> new SettingsDraft(SettingRules.DEFAULT_REDIS_URI, RedisMode.STANDALONE, 0, Duration.ZERO,
                SettingRules.DEFAULT_COMMAND_TIMEOUT, SettingRules.DEFAULT_KEY_PREFIX, SettingRules.DEFAULT_LEASE,
                SettingRules.DEFAULT_FENCING_COUNTER_LIFETIME, SettingRules.DEFAULT_WAIT, List.of()).check())
                .doesNotThrowAnyException();
    }

    @Test
    void configWithNothingSetHasTheBuildersDefaults() {
        LocksmithSettings settings = LocksmithSettings.read(key -> Optional.empty());

        assertThat(settings.redisUri()).isEqualTo(SettingRules.DEFAULT_REDIS_URI);
        assertThat(settings.mode()).isEqualTo(SettingRules.DEFAULT_MODE);
        assertThat(settings.syncReplicas()).isZero();
        assertThat(settings.syncTimeout()).isEqualTo(SettingRules.DEFAULT_SYNC_TIMEOUT);
        assertThat(settings.commandTimeout()).isEqualTo(SettingRules.DEFAULT_COMMAND_TIMEOUT);
        assertThat(settings.keyPrefix()).isEqualTo(SettingRules.DEFAULT_KEY_PREFIX);
        assertThat(settings.leaseTime()).isEqualTo(SettingRules.DEFAULT_LEASE);
        assertThat(settings.fenceLifetime()).isEqualTo(SettingRules.DEFAULT_FENCING_COUNTER_LIFETIME);
        assertThat(settings.telemetry()).isEqualTo(SettingRules.DEFAULT_TELEMETRY);
        assertThat(settings.resolvedNames()).isEqualTo(SettingRules.DEFAULT_RESOLVED_NAMES);
        assertThat(settings.namePatterns()).isEmpty();
    }

    private static Arguments bad(String what, String fix, Consumer<Locksmith.Builder> setUp, String... keysAndTexts) {
        Map<String, String> config = new LinkedHashMap<>();
        for (int i = 0; i < keysAndTexts.length; i += 2) {
            config.put(keysAndTexts[i], keysAndTexts[i + 1]);
        }
        return Arguments.of(what, fix, setUp, config);
    }
}
