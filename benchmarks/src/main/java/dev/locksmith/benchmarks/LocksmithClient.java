package dev.locksmith.benchmarks;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import java.time.Duration;
import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import java.util.List;

/**
 * Locksmith as a user builds it, with every default (watchdog lease, one multiplexed connection
 * per server): standalone on one server, or {@link RedisMode#REDLOCK} over independent masters.
 */
final class LocksmithClient implements LockClient {
    private final LockManager locks;

    LocksmithClient(Scenario.Servers servers, List<String> redisUris) {
        this(builder(servers, redisUris));
    }

    private LocksmithClient(Locksmith.Builder builder) {
        this.locks = builder.build();
    }

    /**
     * @return Locksmith recording its metrics into an OpenTelemetry SDK whose reader collects
     *         every second, as a server with MicroProfile Telemetry would
     */
    static LocksmithClient withTelemetry(Scenario.Servers servers, List<String> redisUris) {
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(PeriodicMetricReader
                        .builder(new DiscardingExporter()).setInterval(Duration.ofSeconds(1)).build()).build())
                .build();
        return new LocksmithClient(builder(servers, redisUris).openTelemetry(sdk));
    }

    private static Locksmith.Builder builder(Scenario.Servers servers, List<String> redisUris) {
        Locksmith.Builder builder = Locksmith.builder().redisUri(String.join(",", redisUris));
        if (servers == Scenario.Servers.REDLOCK_MASTERS) {
            builder.mode(RedisMode.REDLOCK);
        }
        return builder;
    }

    @Override
    public CycleLock lockFor(Scenario.Kind kind, String name) {
        return switch (kind) {
            case REENTRANT -> CycleLock.of(locks.getLock(name), true);
            case FAIR -> CycleLock.of(locks.getFairLock(name), true);
            case READ -> CycleLock.of(locks.getReadWriteLock(name).readLock(), false);
            case WRITE -> CycleLock.of(locks.getReadWriteLock(name).writeLock(), true);
            case READ_WRITE_MIXED -> CycleLock.mixed(locks.getReadWriteLock(name).readLock(),
                    locks.getReadWriteLock(name).writeLock());
            case MULTI_3 -> CycleLock.of(locks.getMultiLock(Scenario.Kind.memberNames(name).stream()
                    .map(locks::getLock).toArray(DistributedLock[]::new)), true);
        };
    }

    @Override
    public void close() {
        locks.close();
    }
}
