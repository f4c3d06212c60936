package dev.locksmith.it;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The sample on Quarkus in JVM mode: CDI Lite (ArC), Narayana, SmallRye Health, OpenTelemetry and
 * the scheduler; no Enterprise Beans and no Jakarta Concurrency.
 */
enum QuarkusRuntime implements SampleRuntime {
    /** {@code quarkus-sample/target/quarkus-app/quarkus-run.jar} */
    JVM;

    @Override
    public SampleServer start(String name, Path workDir, Map<String, String> environment) {
        return QuarkusServer.start(name, environment);
    }

    @Override
    public boolean hasHealth() {
        return true;
    }

    @Override
    public boolean hasConcurrency() {
        return false;
    }

    /**
     * @return true: the sample has {@code quarkus-opentelemetry} with metrics on and the logging exporter
     */
    @Override
    public boolean exportsMetrics() {
        return true;
    }

    @Override
    public List<Via> lockedPaths() {
        return List.of(Via.CDI, Via.MANAGER);
    }

    /**
     * @return what Quarkus REST logs for an exception no mapper answered
     */
    @Override
    public String systemExceptionMessage() {
        return "failed, error id";
    }

    @Override
    public String toString() {
        return "Quarkus";
    }
}
