package dev.locksmith.it;

import java.nio.file.Path;
import java.util.Map;

/**
 * The runtimes besides Open Liberty that the sample WAR runs on, unchanged.
 */
enum OtherRuntime implements SampleRuntime {
    /** Payara Micro 6: the full MicroProfile platform, Jakarta EE Web Profile and EJB Lite. */
    PAYARA_MICRO(true, "EJB5184"),
    /** WildFly with its default {@code standalone.xml}: MicroProfile Config but not MicroProfile Health. */
    WILDFLY(false, "WFLYEJB0034"),
    /** WildFly with {@code standalone.xml} and the {@code microprofile-health-smallrye} subsystem added to it. */
    WILDFLY_WITH_HEALTH(true, "WFLYEJB0034");

    private final boolean health;
    private final String systemExceptionMessage;

    OtherRuntime(boolean health, String systemExceptionMessage) {
        this.health = health;
        this.systemExceptionMessage = systemExceptionMessage;
    }

    @Override
    public SampleServer start(String name, Path workDir, Map<String, String> environment) {
        return this == PAYARA_MICRO ? PayaraMicroServer.start(name, workDir, environment)
                : WildFlyServer.start(name, workDir, environment, health);
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
            case WILDFLY -> "WildFly";
            case WILDFLY_WITH_HEALTH -> "WildFly with MicroProfile Health";
        };
    }
}
