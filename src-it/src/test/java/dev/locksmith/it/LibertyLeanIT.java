package dev.locksmith.it;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SampleChecks} on two Open Liberty servers with {@link LibertyRuntime#LEAN}.
 */
class LibertyLeanIT extends SampleChecks {
    @RegisterExtension
    static final SampleCluster cluster = SampleCluster.sharingPostgres(LibertyRuntime.LEAN, 2);

    @Override
    SampleCluster cluster() {
        return cluster;
    }
}
