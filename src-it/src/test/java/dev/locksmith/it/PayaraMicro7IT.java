package dev.locksmith.it;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SampleChecks} on two servers of {@link OtherRuntime#PAYARA_MICRO_7} (Payara Micro 7, Jakarta EE 11, on Java 21+),
 * running the same WAR as the Jakarta EE 10 servers: with it the Concurrency 3.1 schedule and the
 * reservations on a managed executor's virtual threads.
 */
class PayaraMicro7IT extends SampleChecks {
    @RegisterExtension
    static final SampleCluster cluster = SampleCluster.sharingPostgres(OtherRuntime.PAYARA_MICRO_7, 2);

    @Override
    SampleCluster cluster() {
        return cluster;
    }
}
