package dev.locksmith.internal.classpath;

/**
 * An API that Locksmith uses where the server offers it and does without where it does not.
 *
 * <p>This is the only place that asks whether one is there, and the only place that loads one of
 * their types by name ({@link #type(String)}). It names each API by a string and
 * refers to none of their types, so loading and verifying it never fails: the classes that do
 * use an API are reached only after {@link #isPresent()} said yes.
 */
public enum OptionalApi {
    /** MicroProfile Config: settings; without it, system properties. */
    CONFIG("MicroProfile Config", "org.eclipse.microprofile.config.ConfigProvider"),
    /** MicroProfile Health: the readiness check. */
    HEALTH("MicroProfile Health", "org.eclipse.microprofile.health.HealthCheck"),
    /** Jakarta Transactions: release after completion, and a commit that fails on a lost lock. */
    JTA("Jakarta Transactions", "jakarta.transaction.TransactionSynchronizationRegistry"),
    /** Jakarta Concurrency: the watchdog and Redis I/O on the container's threads. */
    CONCURRENCY("Jakarta Concurrency", "jakarta.enterprise.concurrent.ManagedScheduledExecutorService"),
    /** OpenTelemetry (MicroProfile Telemetry): metrics and spans. */
    OPENTELEMETRY("OpenTelemetry", "io.opentelemetry.api.OpenTelemetry"),
    /** Flight Recorder: in every JDK, but hidden from applications by some module systems (WildFly's). */
    FLIGHT_RECORDER("Flight Recorder", "jdk.jfr.Event");

    private final String title;
    private final String probeClass;
    private volatile Boolean present;

    OptionalApi(String title, String probeClass) {
        this.title = title;
        this.probeClass = probeClass;
    }

    /**
     * @return true if the application's class loader sees this API; asked once, then remembered
     */
    public boolean isPresent() {
        Boolean known = present;
        if (known == null) {
            known = probe();
            present = known;
        }
        return known;
    }

    private boolean probe() {
        try {
            Class.forName(probeClass, false, OptionalApi.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * @param className a type of this API, such as {@code jakarta.enterprise.concurrent.ManagedThreadFactory}
     * @return that type, or null when this API is missing or lacks it
     */
    public Class<?> type(String className) {
        if (!isPresent()) {
            return null;
        }
        try {
            return Class.forName(className, false, OptionalApi.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /**
     * @return the API's name as users know it, for log lines
     */
    public String title() {
        return title;
    }
}
