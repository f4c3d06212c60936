package dev.locksmith.internal.config;

import dev.locksmith.internal.classpath.OptionalApi;
import dev.locksmith.internal.jfr.FlightRecorderObserver;
import dev.locksmith.internal.observe.LockLabels;
import dev.locksmith.internal.observe.GuardedObserver;
import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.internal.observe.Observers;
import dev.locksmith.internal.otel.OpenTelemetryObserver;
import java.util.ArrayList;
import java.util.List;

/**
 * What a manager tells operators and how it names locks there.
 *
 * @param enabled         whether metrics and spans are recorded (Flight Recorder events always are)
 * @param openTelemetry   an {@code io.opentelemetry.api.OpenTelemetry}, or null for none
 * @param namePatterns    name patterns that label locks in metrics, such as {@code stock:*}
 * @param resolvedNames   whether metrics label locks with their resolved names instead
 * @param applicationName the application's name, shown to operators as part of each holder's description
 */
public record TelemetrySettings(boolean enabled, Object openTelemetry, List<String> namePatterns,
                                boolean resolvedNames, String applicationName) {

    /** No OpenTelemetry (so no metrics or spans), Flight Recorder on, no patterns, no application name. */
    public static final TelemetrySettings DEFAULT = new TelemetrySettings(true, null, List.of(), false, null);

    /**
     * @param namePatterns checked by {@link SettingsDraft#check()}
     * @throws IllegalArgumentException if an OpenTelemetry was given where its API is missing
     */
    public TelemetrySettings {
        namePatterns = List.copyOf(namePatterns);
        if (openTelemetry != null && !OptionalApi.OPENTELEMETRY.isPresent()) {
            throw new IllegalArgumentException("openTelemetry(" + openTelemetry.getClass().getName() + ") was given,"
                    + " but the OpenTelemetry API (io.opentelemetry:opentelemetry-api) is not on the class path");
        }
    }

    /**
     * @return the observer of every lock of the manager: Flight Recorder, and OpenTelemetry when given and enabled
     */
    public LockObserver observer() {
        List<LockObserver> observers = new ArrayList<>();
        // Each guarded on its own: one that throws must not keep the next from being told.
        if (OptionalApi.FLIGHT_RECORDER.isPresent()) {
            observers.add(GuardedObserver.guard(new FlightRecorderObserver()));
        }
        if (enabled && openTelemetry != null) {
            observers.add(GuardedObserver.guard(OpenTelemetryObserver.of(openTelemetry)));
        }
        return observers.isEmpty() ? LockObserver.NONE : Observers.of(observers);
    }

    /**
     * @return how locks are named in metrics and spans
     */
    public LockLabels labels() {
        return new LockLabels(namePatterns, resolvedNames);
    }

    /**
     * @return whether metrics and spans go to OpenTelemetry
     */
    public boolean recordsOpenTelemetry() {
        return enabled && openTelemetry != null;
    }
}
