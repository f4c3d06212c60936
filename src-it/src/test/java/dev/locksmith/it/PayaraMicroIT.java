package dev.locksmith.it;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SampleChecks} on two servers of {@link OtherRuntime#PAYARA_MICRO}, running the same WAR as Open Liberty.
 */
class PayaraMicroIT extends SampleChecks {
    @RegisterExtension
    static final SampleCluster cluster = SampleCluster.sharingPostgres(OtherRuntime.PAYARA_MICRO, 2);

    @Override
    SampleCluster cluster() {
        return cluster;
    }
}
