package dev.locksmith.it;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SampleChecks} on two servers of {@link OtherRuntime#WILDFLY_PREVIEW} (WildFly Preview,
 * Jakarta EE 11, with MicroProfile Health, on Java 21+), running the same WAR as the Jakarta EE 10 servers: with it the Concurrency 3.1 schedule and the
 * reservations on a managed executor's virtual threads.
 */
class WildFlyPreviewIT extends SampleChecks {
    @RegisterExtension
    static final SampleCluster cluster = SampleCluster.sharingPostgres(OtherRuntime.WILDFLY_PREVIEW, 2);

    @Override
    SampleCluster cluster() {
        return cluster;
    }
}
