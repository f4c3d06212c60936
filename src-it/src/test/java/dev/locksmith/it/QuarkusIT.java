package dev.locksmith.it;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SampleChecks} on two instances of the Quarkus sample, which shares its sources with the
 * Liberty sample but has no session beans: the {@code ejb} and {@code singleton} paths are skipped.
 */
class QuarkusIT extends SampleChecks {
    @RegisterExtension
    static final SampleCluster cluster = SampleCluster.sharingPostgres(QuarkusRuntime.JVM, 2);

    @Override
    SampleCluster cluster() {
        return cluster;
    }
}
