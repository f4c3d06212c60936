package dev.locksmith.it;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SampleChecks} on two servers of {@link OtherRuntime#WILDFLY}, running the same WAR as Open Liberty.
 */
class WildFlyIT extends SampleChecks {
    @RegisterExtension
    static final SampleCluster cluster = SampleCluster.sharingPostgres(OtherRuntime.WILDFLY, 2);

    @Override
    SampleCluster cluster() {
        return cluster;
    }
}
