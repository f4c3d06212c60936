package dev.locksmith.it;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The runtimes besides Open Liberty that the sample WAR runs on, unchanged: the Jakarta EE 10
 * servers on the build's own Java, and the Jakarta EE 11 ones (Concurrency 3.1) on a JDK 21+
 * ({@link Java21Home}).
 */
enum OtherRuntime implements SampleRuntime {
    /** Payara Micro 6: the full MicroProfile platform, Jakarta EE 10 Web Profile and EJB Lite. */
    PAYARA_MICRO("payara.micro.jar", false, false, true, "EJB5184"),
    /** Payara Micro 7: Jakarta EE 11 with Concurrency 3.1 (schedules, virtual threads), on Java 21+. */
    PAYARA_MICRO_7("payara.micro7.jar", true, true, true, "EJB5184"),
    /** WildFly with its default {@code standalone.xml}: MicroProfile Config but not MicroProfile Health. */
    WILDFLY("wildfly.home", false, false, false, "WFLYEJB0034"),
    /** WildFly with {@code standalone.xml} and the {@code microprofile-health-smallrye} subsystem added to it. */
    WILDFLY_WITH_HEALTH("wildfly.home", false, false, true, "WFLYEJB0034"),
    /**
     * WildFly Preview 38 (Jakarta EE 11 APIs) on Java 21+, with MicroProfile Health added as above. It
     * ships the Concurrency 3.1 API over its 3.0 implementation ({@code wildfly-concurrency-impl-30}):
     * {@code runAt} and {@code virtual = true} are ignored, so no Concurrency 3.1 here.
     */
    WILDFLY_PREVIEW("wildfly.preview.home", true, false, true, "WFLYEJB0034");

    /** The sample's {@code ManagedThreadFactoryDefinition(virtual = true)}. */
    static final String VIRTUAL_THREAD_FACTORY = "java:app/concurrent/virtualThreadFactory";

    private final String distribution;
    private final boolean java21;
    private final boolean concurrency31;
    private final boolean health;
    private final String systemExceptionMessage;

    OtherRuntime(String distribution, boolean java21, boolean concurrency31, boolean health,
            String systemExceptionMessage) {
        this.distribution = distribution;
        this.java21 = java21;
        this.concurrency31 = concurrency31;
        this.health = health;
        this.systemExceptionMessage = systemExceptionMessage;
    }

    @Override
    public SampleServer start(String name, Path workDir, Map<String, String> environment) {
        Path javaHome = java21 ? Java21Home.path() : Path.of(System.getProperty("java.home"));
        return switch (this) {
            case PAYARA_MICRO, PAYARA_MICRO_7 -> PayaraMicroServer.start(name, workDir, environment, distribution, javaHome);
            case WILDFLY, WILDFLY_WITH_HEALTH, WILDFLY_PREVIEW ->
                    WildFlyServer.start(name, workDir, environment, health, distribution, javaHome);
        };
    }

    @Override
    public boolean hasHealth() {
        return health;
    }

    @Override
    public boolean hasConcurrency() {
        return true;
    }

    @Override
    public boolean hasConcurrency31() {
        return concurrency31;
    }

    /**
     * @return on Payara Micro 7, the sample's {@code ManagedThreadFactory} of virtual threads
     *         ({@code VirtualThreadExecutor.THREAD_FACTORY}): every check runs with Locksmith's Redis
     *         I/O threads on it
     */
    @Override
    public Optional<String> locksmithThreadFactory() {
        return this == PAYARA_MICRO_7 ? Optional.of(VIRTUAL_THREAD_FACTORY) : Optional.empty();
    }

    @Override
    public boolean exportsMetrics() {
        return false;
    }

    @Override
    public String systemExceptionMessage() {
        return systemExceptionMessage;
    }

    @Override
    public String toString() {
        return switch (this) {
            case PAYARA_MICRO -> "Payara Micro";
            case PAYARA_MICRO_7 -> "Payara Micro 7";
            case WILDFLY -> "WildFly";
            case WILDFLY_WITH_HEALTH -> "WildFly with MicroProfile Health";
            case WILDFLY_PREVIEW -> "WildFly Preview";
        };
    }
}
