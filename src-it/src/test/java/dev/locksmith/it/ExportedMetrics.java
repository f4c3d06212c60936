package dev.locksmith.it;

import dev.locksmith.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Locksmith's metrics as the servers' OpenTelemetry console (logging) exporter printed them last: the
 * acquisitions and the count of acquired waits of {@code @Locked("stock:{sku}")}, summed over the
 * servers. The exporter prints cumulative values every few seconds.
 *
 * @param acquisitions {@code locksmith.lock.acquisitions} of reentrant {@code stock:{sku}}
 * @param acquiredWaits {@code locksmith.lock.wait.duration} count, outcome acquired
 */
record ExportedMetrics(long acquisitions, long acquiredWaits) {
    private static final String TEMPLATE = "stock:{sku}";
    // Attribute values are quoted and may hold braces ("stock:{sku}"): the list ends at "}.
    private static final Pattern ATTRIBUTES = Pattern.compile("[aA]ttributes=\\{(.*?\")\\}");
    private static final Pattern SUM_VALUE = Pattern.compile(", value=(\\d+)");
    private static final Pattern HISTOGRAM_COUNT = Pattern.compile("getCount=(\\d+)");

    /**
     * Waits until each server has exported twice more, so that the figures include everything
     * done before this call, then reads them.
     */
    static ExportedMetrics settled(SampleCluster cluster, Duration timeout) {
        for (int i = 0; i < 2; i++) {
            SampleServer server = cluster.process(i);
            long exportsBefore = exports(server.log());
            Await.until(server.name() + " exported metrics twice more (MicroProfile Telemetry on, with"
                    + " OTEL_METRICS_EXPORTER=console? on Quarkus, quarkus.otel.metrics.exporter=logging?)", timeout,
                    () -> exports(server.log()) >= exportsBefore + 2);
        }
        return latest(cluster);
    }

    private static long exports(List<String> log) {
        return log.stream().filter(line -> line.contains("Received a collection of")).count();
    }

    static ExportedMetrics latest(SampleCluster cluster) {
        long acquisitions = 0;
        long waits = 0;
        for (int i = 0; i < 2; i++) {
            List<String> log = cluster.process(i).log();
            acquisitions += last(log, "locksmith.lock.acquisitions", SUM_VALUE);
            waits += last(log, "locksmith.lock.wait.duration", HISTOGRAM_COUNT);
        }
        return new ExportedMetrics(acquisitions, waits);
    }

    /**
     * @return the waits for locks labelled {@code template} that ended {@code skipped}, summed over
     *         both servers' latest exports
     */
    static long skipped(SampleCluster cluster, String template) {
        long skipped = 0;
        for (int i = 0; i < 2; i++) {
            List<String> log = cluster.process(i).log();
            for (int line = log.size() - 1; line >= 0; line--) {
                if (log.get(line).contains("name=locksmith.lock.wait.duration,")) {
                    String[] points = log.get(line).split("PointData\\{");
                    for (int p = 1; p < points.length; p++) {
                        Matcher attributes = ATTRIBUTES.matcher(points[p]);
                        Matcher count = HISTOGRAM_COUNT.matcher(points[p]);
                        if (attributes.find() && count.find()
                                && attributes.group(1).contains("locksmith.lock.name=\"" + template + "\"")
                                && attributes.group(1).contains("outcome=\"skipped\"")) {
                            skipped += Long.parseLong(count.group(1));
                        }
                    }
                    break;
                }
            }
        }
        return skipped;
    }

    /**
     * @return how much each figure grew since {@code before}
     */
    ExportedMetrics minus(ExportedMetrics before) {
        return new ExportedMetrics(acquisitions - before.acquisitions, acquiredWaits - before.acquiredWaits);
    }

    private static long last(List<String> log, String metric, Pattern value) {
        for (int i = log.size() - 1; i >= 0; i--) {
            String line = log.get(i);
            if (line.contains("name=" + metric + ",")) {
                return sumOfPoints(line, value);
            }
        }
        return 0;
    }

    /**
     * The exporter prints each point as {@code Immutable...PointData{..., attributes={...}, ..., value=N, ...}}
     * (sums) or {@code ...getAttributes={...}, ..., getCount=N, ...} (histograms).
     */
    private static long sumOfPoints(String line, Pattern value) {
        long sum = 0;
        String[] points = line.split("PointData\\{");
        for (int i = 1; i < points.length; i++) {
            Matcher attributes = ATTRIBUTES.matcher(points[i]);
            Matcher number = value.matcher(points[i]);
            if (attributes.find() && number.find() && matches(attributes.group(1))) {
                sum += Long.parseLong(number.group(1));
            }
        }
        return sum;
    }

    private static boolean matches(String attributes) {
        return attributes.contains("locksmith.lock.name=\"" + TEMPLATE + "\"")
                && attributes.contains("locksmith.lock.kind=\"reentrant\"")
                && (!attributes.contains("outcome") || attributes.contains("outcome=\"acquired\""));
    }
}
