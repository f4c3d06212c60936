package dev.locksmith.testing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;

/**
 * An OpenTelemetry SDK that keeps what a manager counts in memory, so that a test reads the same
 * counters an operator would (hand-overs, yields, failed releases) instead of internals.
 */
public final class CountedMetrics implements AutoCloseable {
    private final InMemoryMetricReader reader = InMemoryMetricReader.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build()).build();

    /**
     * @return what to pass to {@code Locksmith.builder().openTelemetry(...)}
     */
    public OpenTelemetrySdk openTelemetry() {
        return sdk;
    }

    /**
     * @param name a counter's name, such as {@code locksmith.lock.handovers}
     * @return its total over every label, 0 when nothing was counted
     */
    public long total(String name) {
        return reader.collectAllMetrics().stream().filter(metric -> metric.getName().equals(name))
                .flatMap(metric -> metric.getLongSumData().getPoints().stream())
                .mapToLong(point -> point.getValue()).sum();
    }

    /**
     * @param name      a histogram's name, such as {@code locksmith.lock.wait.duration}
     * @param attribute an attribute's key, such as {@code locksmith.lock.wait.outcome}
     * @param value     the attribute's value, such as {@code skipped}
     * @return how many values it recorded with that attribute, 0 when none
     */
    public long recorded(String name, String attribute, String value) {
        return reader.collectAllMetrics().stream().filter(metric -> metric.getName().equals(name))
                .flatMap(metric -> metric.getHistogramData().getPoints().stream())
                .filter(point -> value.equals(point.getAttributes().get(AttributeKey.stringKey(attribute))))
                .mapToLong(point -> point.getCount()).sum();
    }

    /**
     * @param name a gauge's name, such as {@code locksmith.locks.held}
     * @return its latest value summed over every label, 0 when nothing was recorded
     */
    public long gauge(String name) {
        return reader.collectAllMetrics().stream().filter(metric -> metric.getName().equals(name))
                .flatMap(metric -> metric.getLongGaugeData().getPoints().stream())
                .mapToLong(point -> point.getValue()).sum();
    }

    @Override
    public void close() {
        sdk.close();
    }
}
