package dev.locksmith.it;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SampleChecks} on two Open Liberty servers with {@link LibertyRuntime#FULL}.
 */
class LibertyFullIT extends SampleChecks {
    @RegisterExtension
    static final SampleCluster cluster = SampleCluster.sharingPostgres(LibertyRuntime.FULL, 2);

    @Override
    SampleCluster cluster() {
        return cluster;
    }
}
