package dev.locksmith.it;

import java.nio.file.Path;
import java.util.Map;

/**
 * Open Liberty with one of the sample's feature sets ({@code liberty-sample/src/main/liberty/config/features}).
 */
enum LibertyRuntime implements SampleRuntime {
    /** What the sample's server.xml chooses by default: its features plus Concurrency, Health and Telemetry. */
    SAMPLE("sample", true, true, true),
    /** Only what the sample's code needs: no MicroProfile Health, no Jakarta Concurrency, no telemetry. */
    LEAN("lean", false, false, false),
    /** {@code jakartaee-10.0} and {@code microProfile-7.0}. */
    FULL("full", true, true, true);

    private final String features;
    private final boolean health;
    private final boolean concurrency;
    private final boolean telemetry;

    LibertyRuntime(String features, boolean health, boolean concurrency, boolean telemetry) {
        this.features = features;
        this.health = health;
        this.concurrency = concurrency;
        this.telemetry = telemetry;
    }

    @Override
    public SampleServer start(String name, Path workDir, Map<String, String> environment) {
        return LibertyServer.start(name, features, workDir, environment);
    }

    @Override
    public boolean hasHealth() {
        return health;
    }

    @Override
    public boolean hasConcurrency() {
        return concurrency;
    }

    @Override
    public boolean exportsMetrics() {
        return telemetry;
    }

    @Override
    public String systemExceptionMessage() {
        return "CNTR0020E";
    }

    @Override
    public String toString() {
        return "Open Liberty (" + features + " features)";
    }
}
