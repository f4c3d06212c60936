package dev.locksmith.internal.otel;

import dev.locksmith.internal.observe.HoldObservation;
import dev.locksmith.internal.observe.LockLabel;
import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.internal.observe.WaitObservation;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.DoubleHistogramBuilder;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Locksmith's metrics and spans (the names, units and attributes are listed in
 * {@code docs/observability.md}). Attributes name a lock by its label, never by its resolved
 * name unless the user opted in, so the number of series stays bounded.
 */
public final class OpenTelemetryObserver implements LockObserver {
    static final String SCOPE = "dev.locksmith";
    static final AttributeKey<String> KIND = AttributeKey.stringKey("locksmith.lock.kind");
    static final AttributeKey<String> NAME = AttributeKey.stringKey("locksmith.lock.name");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("locksmith.lock.wait.outcome");
    static final AttributeKey<Long> TOKEN = AttributeKey.longKey("locksmith.lock.fencing_token");
    static final AttributeKey<Double> WAITED = AttributeKey.doubleKey("locksmith.lock.wait.duration");
    static final AttributeKey<String> ERROR = AttributeKey.stringKey("error.type");

    private static final List<Double> SECONDS = List.of(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
            2.5, 5.0, 10.0, 30.0, 60.0);

    private final Tracer tracer;
    private final DoubleHistogram waitDuration;
    private final DoubleHistogram holdDuration;
    private final LongCounter acquisitions;
    private final LongCounter timeouts;
    private final LongCounter leasesLost;
    private final LongCounter renewals;
    private final LongCounter renewalFailures;
    private final LongCounter redisErrors;
    private final LongCounter handOvers;
    private final LongCounter yields;
    private final LongCounter releaseFailures;
    private final LongCounter fenceRefusals;
    private final Map<Attributes, AtomicLong> held = new ConcurrentHashMap<>();
    private final Map<Attributes, AtomicLong> waiting = new ConcurrentHashMap<>();

    private OpenTelemetryObserver(OpenTelemetry openTelemetry) {
        Meter meter = openTelemetry.getMeter(SCOPE);
        tracer = openTelemetry.getTracer(SCOPE);
        waitDuration = inSeconds(meter.histogramBuilder("locksmith.lock.wait.duration").setUnit("s")
                .setDescription("How long callers waited for a lock, by outcome")).build();
        holdDuration = inSeconds(meter.histogramBuilder("locksmith.lock.hold.duration").setUnit("s")
                .setDescription("How long a lock was held, from its grant to its release")).build();
        acquisitions = meter.counterBuilder("locksmith.lock.acquisitions").setUnit("{acquisition}")
                .setDescription("Locks acquired").build();
        timeouts = meter.counterBuilder("locksmith.lock.timeouts").setUnit("{timeout}")
                .setDescription("Waits that ended without the lock").build();
        leasesLost = meter.counterBuilder("locksmith.lease.lost").setUnit("{lease}")
                .setDescription("Held locks lost: the lease ran out or the lock was taken away").build();
        renewals = meter.counterBuilder("locksmith.lease.renewals").setUnit("{lease}")
                .setDescription("Leases the watchdog renewed").build();
        renewalFailures = meter.counterBuilder("locksmith.lease.renewal.failures").setUnit("{lease}")
                .setDescription("Leases a watchdog round trip failed to renew").build();
        redisErrors = meter.counterBuilder("locksmith.redis.errors").setUnit("{error}")
                .setDescription("Redis errors, by kind").build();
        handOvers = meter.counterBuilder("locksmith.lock.handovers").setUnit("{handover}")
                .setDescription("Releases that passed the lock straight to another thread of this process").build();
        yields = meter.counterBuilder("locksmith.lock.yields").setUnit("{yield}")
                .setDescription("Releases that offered the lock to the next waiting process (of another process)")
                .build();
        releaseFailures = meter.counterBuilder("locksmith.lock.release.failures").setUnit("{release}")
                .setDescription("Releases and hand-overs that got an error or no answer; the lock frees itself"
                        + " when its lease runs out").build();
        fenceRefusals = meter.counterBuilder("locksmith.lock.fence.refusals").setUnit("{write}")
                .setDescription("Transactions the fence table refused: their holder's lock had been taken by a"
                        + " later holder").build();
        meter.gaugeBuilder("locksmith.locks.held").ofLongs().setUnit("{lock}")
                .setDescription("Locks this process holds now")
                .buildWithCallback(gauge -> held.forEach((attributes, count) -> gauge.record(count.get(), attributes)));
        meter.gaugeBuilder("locksmith.lock.waiters").ofLongs().setUnit("{thread}")
                .setDescription("Threads of this process waiting for a lock now")
                .buildWithCallback(gauge -> waiting.forEach((attributes, count) -> gauge.record(count.get(), attributes)));
    }

    /**
     * Buckets for durations in seconds, from 1 ms to a minute; the SDK's default buckets are
     * meant for milliseconds. An API older than 1.32 has no advice, and keeps the SDK's.
     */
    private static DoubleHistogramBuilder inSeconds(DoubleHistogramBuilder histogram) {
        try {
            histogram.setExplicitBucketBoundariesAdvice(SECONDS);
        } catch (NoSuchMethodError | UnsupportedOperationException e) {
            // the server's OpenTelemetry API predates bucket advice
        }
        return histogram;
    }

    /**
     * @param openTelemetry an {@code io.opentelemetry.api.OpenTelemetry}
     * @return the observer recording through it
     * @throws IllegalArgumentException if it is something else
     */
    public static LockObserver of(Object openTelemetry) {
        if (!(openTelemetry instanceof OpenTelemetry api)) {
            throw new IllegalArgumentException("openTelemetry(" + openTelemetry.getClass().getName() + ") is not an"
                    + " io.opentelemetry.api.OpenTelemetry; pass the application's OpenTelemetry, for example the"
                    + " @Inject OpenTelemetry bean of MicroProfile Telemetry");
        }
        return new OpenTelemetryObserver(api);
    }

    @Override
    public WaitObservation waitStarted(LockLabel label, boolean traced) {
        Attributes lock = attributes(label);
        long start = System.nanoTime();
        AtomicLong waiters = waiting.computeIfAbsent(lock, key -> new AtomicLong());
        waiters.incrementAndGet();
        Span span = traced ? tracer.spanBuilder("lock " + label.template()).setAttribute(KIND, label.kind())
                .setAttribute(NAME, label.template()).startSpan() : null;
        return new WaitObservation() {
            @Override
            public void acquired(long fencingToken) {
                acquisitions.add(1, lock);
                if (span != null && fencingToken >= 0) {
                    span.setAttribute(TOKEN, fencingToken);
                }
                end("acquired", null);
            }

            @Override
            public void timedOut() {
                timeouts.add(1, lock);
                end("timeout", null);
            }

            @Override
            public void skipped() {
                end("skipped", null);
            }

            @Override
            public void interrupted() {
                end("interrupted", null);
            }

            @Override
            public void failed(Throwable failure) {
                end("error", failure);
            }

            private void end(String outcome, Throwable failure) {
                waiters.decrementAndGet();
                double seconds = (System.nanoTime() - start) / 1e9;
                waitDuration.record(seconds, lock.toBuilder().put(OUTCOME, outcome).build());
                if (span != null) {
                    span.setAttribute(OUTCOME, outcome);
                    span.setAttribute(WAITED, seconds);
                    if (failure != null) {
                        span.recordException(failure);
                        span.setStatus(StatusCode.ERROR, failure.getMessage());
                    }
                    span.end();
                }
            }
        };
    }

    @Override
    public HoldObservation holdStarted(LockLabel label, long fencingToken) {
        Attributes lock = attributes(label);
        long start = System.nanoTime();
        AtomicLong count = held.computeIfAbsent(lock, key -> new AtomicLong());
        count.incrementAndGet();
        // The span that holds the lock: the caller's, current while it acquires.
        Span holder = Span.current();
        return new HoldObservation() {
            @Override
            public void lost() {
                if (holder.isRecording()) {
                    holder.addEvent("locksmith.lease.lost", Attributes.of(KIND, label.kind(), NAME, label.template(),
                            TOKEN, fencingToken));
                }
                leasesLost.add(1, lock);
            }

            @Override
            public void ended() {
                count.decrementAndGet();
                holdDuration.record((System.nanoTime() - start) / 1e9, lock);
            }
        };
    }

    @Override
    public void renewed(int holds) {
        renewals.add(holds);
    }

    @Override
    public void renewalFailed(int holds) {
        renewalFailures.add(holds);
    }

    @Override
    public void redisError(String kind) {
        redisErrors.add(1, Attributes.of(ERROR, kind));
    }

    @Override
    public void handedOver(LockLabel label) {
        handOvers.add(1, attributes(label));
    }

    @Override
    public void yielded(LockLabel label) {
        yields.add(1, attributes(label));
    }

    @Override
    public void releaseFailed(LockLabel label, String errorKind) {
        releaseFailures.add(1, attributes(label).toBuilder().put(ERROR, errorKind).build());
    }

    @Override
    public void fenceRefused(LockLabel label, long fencingToken, long databaseToken) {
        // By name label only: a refusal comes from the fence table, which knows names, not kinds.
        fenceRefusals.add(1, Attributes.of(NAME, label.template()));
    }

    /**
     * @return the attributes of every per-lock metric: kind and label
     */
    private static Attributes attributes(LockLabel label) {
        return Attributes.of(KIND, label.kind(), NAME, label.template());
    }
}
