package dev.locksmith.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.observe.LockLabel;
import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.internal.otel.OpenTelemetryObserver;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisServerExtension;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every metric, span and span event Locksmith records, read back from an in-memory
 * OpenTelemetry SDK: the names, units and attributes {@code docs/observability.md} lists.
 */
class OpenTelemetryTest {
    private static final AttributeKey<String> KIND = AttributeKey.stringKey("locksmith.lock.kind");
    private static final AttributeKey<String> NAME = AttributeKey.stringKey("locksmith.lock.name");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("locksmith.lock.wait.outcome");
    private static final AttributeKey<Long> TOKEN = AttributeKey.longKey("locksmith.lock.fencing_token");

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private OpenTelemetrySdk sdk;

    @BeforeEach
    void sdk() {
        sdk = OpenTelemetrySdk.builder()
                .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
                .build();
    }

    @AfterEach
    void close() {
        sdk.close();
    }

    private LockManager manager(Duration lease) {
        return Locksmith.builder().redisUri(redis.uri()).leaseTime(lease).openTelemetry(sdk)
                .telemetryNamePatterns(List.of("stock:*")).build();
    }

    @Test
    void aGuardedCallRecordsItsWaitAsASpanAndEveryLockCountsAcquisitionsWaitsAndHolds() throws Exception {
        try (LockManager locks = manager(Duration.ofSeconds(30))) {
            locks.callWithLock("stock:1", Duration.ofSeconds(1), () -> "done");
            DistributedLock plain = locks.getLock("invoice:9");
            plain.lock();
            plain.unlock();

            SpanData span = single(spans.getFinishedSpanItems(), "lock stock:*");
            assertThat(span.getAttributes().get(KIND)).isEqualTo("reentrant");
            assertThat(span.getAttributes().get(OUTCOME)).isEqualTo("acquired");
            assertThat(span.getAttributes().get(TOKEN)).isPositive();
            assertThat(span.getAttributes().get(AttributeKey.doubleKey("locksmith.lock.wait.duration"))).isNotNull();
            assertThat(spans.getFinishedSpanItems()).as("only guarded calls make spans").hasSize(1);

            assertThat(count("locksmith.lock.acquisitions", lock("reentrant", "stock:*"))).isEqualTo(1);
            assertThat(count("locksmith.lock.acquisitions", lock("reentrant", "other"))).isEqualTo(1);
            assertThat(histogramCount("locksmith.lock.wait.duration",
                    lock("reentrant", "stock:*").toBuilder().put(OUTCOME, "acquired").build())).isEqualTo(1);
            assertThat(histogramCount("locksmith.lock.hold.duration", lock("reentrant", "other"))).isEqualTo(1);
            assertThat(metric("locksmith.lock.wait.duration").getUnit()).isEqualTo("s");
        }
    }

    @Test
    void aTimeoutIsCountedAndHeldLocksAndWaitingThreadsAreGauges() throws Exception {
        try (LockManager locks = manager(Duration.ofSeconds(30))) {
            HeldByAnotherThread holder = HeldByAnotherThread.hold(locks.getFairLock("stock:2"));
            assertThat(gauge("locksmith.locks.held", lock("fair", "stock:*"))).isEqualTo(1);

            assertThat(locks.getFairLock("stock:2").tryLock(50, TimeUnit.MILLISECONDS)).isFalse();

            assertThat(count("locksmith.lock.timeouts", lock("fair", "stock:*"))).isEqualTo(1);
            assertThat(histogramCount("locksmith.lock.wait.duration",
                    lock("fair", "stock:*").toBuilder().put(OUTCOME, "timeout").build())).isEqualTo(1);
            assertThat(gauge("locksmith.lock.waiters", lock("fair", "stock:*"))).isZero();
            holder.close();
            assertThat(gauge("locksmith.locks.held", lock("fair", "stock:*"))).isZero();
        }
    }

    @Test
    void aLostLeaseIsCountedAndAddsAnEventToTheSpanThatHeldIt() throws Exception {
        try (LockManager locks = manager(Duration.ofMillis(600));
             LockManager operator = Locksmith.builder().redisUri(redis.uri()).build()) {
            Span request = sdk.getTracer("test").spanBuilder("request").startSpan();
            DistributedLock lock = locks.getLock("stock:3");
            try (Scope ignored = request.makeCurrent()) {
                lock.lock();
            }
            Await.until("a renewal", Duration.ofSeconds(5), () -> count("locksmith.lease.renewals", Attributes.empty()) > 0);
            assertThat(operator.getLock("stock:3").forceUnlock()).isTrue();
            Await.until("the loss was noticed", Duration.ofSeconds(5),
                    () -> count("locksmith.lease.lost", lock("reentrant", "stock:*")) == 1);
            assertThatThrownBy(lock::unlock).isInstanceOf(LockException.class);
            request.end();

            SpanData holder = single(spans.getFinishedSpanItems(), "request");
            assertThat(holder.getEvents()).anySatisfy(event -> {
                assertThat(event.getName()).isEqualTo("locksmith.lease.lost");
                assertThat(event.getAttributes().get(NAME)).isEqualTo("stock:*");
            });
        }
    }

    @Test
    void redisErrorsAreCountedByKind() throws Exception {
        try (LockManager locks = manager(Duration.ofSeconds(30))) {
            redis.node().command("HSET", "locksmith:{stock:4}", "not", "a lock");

            assertThatThrownBy(() -> locks.getLock("stock:4").tryLock(1, TimeUnit.SECONDS))
                    .isInstanceOf(LockException.class).hasMessageContaining("WRONGTYPE");

            assertThat(count("locksmith.redis.errors", Attributes.of(AttributeKey.stringKey("error.type"), "WRONGTYPE")))
                    .isEqualTo(1);
            assertThat(histogramCount("locksmith.lock.wait.duration",
                    lock("reentrant", "stock:*").toBuilder().put(OUTCOME, "error").build())).isEqualTo(1);
            redis.node().command("DEL", "locksmith:{stock:4}");
        }
    }

    @Test
    void handOversTurnsAndFailedReleasesAreCountedPerLock() {
        LockObserver observer = OpenTelemetryObserver.of(sdk);
        LockLabel stock = new LockLabel("stock:7", "reentrant", "stock:*");
        LockLabel invoice = new LockLabel("invoice:3", "fair", "other");

        observer.handedOver(stock);
        observer.handedOver(stock);
        observer.handedOver(invoice);
        observer.yielded(stock);
        observer.releaseFailed(stock, "transient");
        observer.releaseFailed(stock, "NOPERM");
        observer.releaseFailed(stock, "NOPERM");

        assertThat(count("locksmith.lock.handovers", lock("reentrant", "stock:*"))).isEqualTo(2);
        assertThat(count("locksmith.lock.handovers", lock("fair", "other"))).isEqualTo(1);
        assertThat(count("locksmith.lock.yields", lock("reentrant", "stock:*"))).isEqualTo(1);
        assertThat(count("locksmith.lock.release.failures", failed("reentrant", "stock:*", "transient"))).isEqualTo(1);
        assertThat(count("locksmith.lock.release.failures", failed("reentrant", "stock:*", "NOPERM"))).isEqualTo(2);
        assertThat(metric("locksmith.lock.handovers").getUnit()).isEqualTo("{handover}");
        assertThat(metric("locksmith.lock.yields").getUnit()).isEqualTo("{yield}");
        assertThat(metric("locksmith.lock.release.failures").getUnit()).isEqualTo("{release}");
    }

    @Test
    void resolvedNamesAreUsedOnlyWhenAskedFor() throws Exception {
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).openTelemetry(sdk)
                .telemetryResolvedNames(true).build()) {
            locks.callWithLock("stock:5", Duration.ofSeconds(1), () -> null);
            assertThat(count("locksmith.lock.acquisitions", lock("reentrant", "stock:5"))).isEqualTo(1);
        }
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).openTelemetry(sdk).telemetry(false).build()) {
            locks.callWithLock("stock:6", Duration.ofSeconds(1), () -> null);
            assertThat(count("locksmith.lock.acquisitions", lock("reentrant", "other"))).isZero();
        }
    }

    private static Attributes lock(String kind, String name) {
        return Attributes.of(KIND, kind, NAME, name);
    }

    private static Attributes failed(String kind, String name, String errorType) {
        return lock(kind, name).toBuilder().put(AttributeKey.stringKey("error.type"), errorType).build();
    }

    private static SpanData single(List<SpanData> finished, String name) {
        List<SpanData> matching = finished.stream().filter(span -> span.getName().equals(name)).toList();
        assertThat(matching).as("spans named %s among %s", name, finished).hasSize(1);
        return matching.get(0);
    }

    private MetricData metric(String name) {
        return metrics.collectAllMetrics().stream().filter(metric -> metric.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name));
    }

    private long count(String name, Attributes attributes) {
        return metrics.collectAllMetrics().stream().filter(metric -> metric.getName().equals(name))
                .flatMap(metric -> metric.getLongSumData().getPoints().stream())
                .filter(point -> attributes.isEmpty() || point.getAttributes().equals(attributes))
                .mapToLong(point -> point.getValue()).sum();
    }

    private long histogramCount(String name, Attributes attributes) {
        return metrics.collectAllMetrics().stream().filter(metric -> metric.getName().equals(name))
                .flatMap(metric -> metric.getHistogramData().getPoints().stream())
                .filter(point -> point.getAttributes().equals(attributes))
                .mapToLong(point -> point.getCount()).sum();
    }

    private long gauge(String name, Attributes attributes) {
        return metrics.collectAllMetrics().stream().filter(metric -> metric.getName().equals(name))
                .flatMap(metric -> metric.getLongGaugeData().getPoints().stream())
                .filter(point -> point.getAttributes().equals(attributes))
                .mapToLong(point -> point.getValue()).sum();
    }
}
