package dev.locksmith.it;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SampleChecks} on two servers of {@link OtherRuntime#WILDFLY_WITH_HEALTH}, running the same
 * WAR as Open Liberty: Locksmith's readiness check is in WildFly's {@code /health/ready}, and
 * goes DOWN while Redis is stopped. {@link WildFlyWithoutHealthIT} covers the default configuration.
 */
class WildFlyIT extends SampleChecks {
    @RegisterExtension
    static final SampleCluster cluster = SampleCluster.sharingPostgres(OtherRuntime.WILDFLY_WITH_HEALTH, 2);

    @Override
    SampleCluster cluster() {
        return cluster;
    }
}
