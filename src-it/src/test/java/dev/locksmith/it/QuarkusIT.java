package dev.locksmith.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.JsonObject;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SampleChecks} on two instances of the Quarkus sample, which shares its sources with the
 * Liberty sample but has no session beans: the {@code ejb} and {@code singleton} paths are skipped.
 * Then what is particular to Quarkus's CDI Lite container: a {@code @Locked} that an annotation
 * transformation added is enforced across the instances, and a bad run-time override of a
 * {@code @Locked} attribute fails the startup.
 */
class QuarkusIT extends SampleChecks {
    @RegisterExtension
    static final SampleCluster cluster = SampleCluster.sharingPostgres(QuarkusRuntime.JVM, 2);

    @Override
    SampleCluster cluster() {
        return cluster;
    }

    /**
     * The sample's {@code LockedByTransformation}, a build compatible extension, adds
     * {@code @Locked("stock:{sku}")} to {@code TransformedReservations#reserve}, which has none in
     * its source: Locksmith finds it in ArC's annotation model, so the first instance holds the
     * SKU's lock through that path, the other instance sees the holder and cannot take the lock.
     */
    @Test
    @Order(10)
    void aLockedAddedByAnAnnotationTransformationHoldsTheLockAcrossBothInstances() throws Exception {
        String sku = SampleCluster.freshSku("transformed");
        SampleClient first = cluster.server(0);
        SampleClient second = cluster.server(1);
        first.restock(sku, 10);
        CompletableFuture<Reply> holding;
        try (DatabaseGates.Gate row = DatabaseGates.holdRow(cluster.postgres(), sku)) {
            holding = first.reserveTransformedAsync(sku, 1);
            DatabaseGates.awaitWaiting(cluster.postgres(), 1, SOON);

            Reply described = second.describeLock("stock:" + sku);
            Reply refused = second.tryReserve(sku, 1, Via.CDI);

            assertThat(described.status()).as("%s", described).isEqualTo(200);
            JsonObject holder = described.body().getJsonArray("holders").getJsonObject(0);
            assertThat(holder.getString("process")).as("the first instance's JVM holds the lock")
                    .startsWith("pid " + cluster.process(0).pid() + " on ");
            assertThat(refused.status()).as("%s", refused).isEqualTo(503);
            assertThat(refused.code()).isEqualTo("LOCK_TIMEOUT");
        }
        Reply reserved = holding.get(SOON.toSeconds(), TimeUnit.SECONDS);

        assertThat(reserved.status()).as("%s", reserved).isEqualTo(201);
        assertThat(reserved.integer("availableBefore")).isEqualTo(10);
        assertThat(cluster.locks().getLock("stock:" + sku).isLocked()).as("released after the commit").isFalse();
    }

    /**
     * A run-time override (here a system property) that the build never saw: the startup fails
     * with the message the portable extension gives at deployment, naming the key, and the
     * instance never serves.
     */
    @Test
    @Order(10)
    void aBadRunTimeOverrideOfALockedAttributeFailsTheStartupNamingTheKey() {
        String key = "dev.locksmith.sample.stock.LockedReservations/reserve/Locked/waitTime";
        Map<String, String> environment = new HashMap<>(cluster.environment("s3"));
        environment.put("SAMPLE_JOBS_ENABLED", "false");

        ServerProcess.Ended ended = QuarkusServer.runToEnd("s3", environment, Map.of(key, "banana"));

        String console = String.join("\n", ended.console());
        assertThat(ended.exitCode()).as("the exit code of an instance that must not start:\n%s", console).isNotZero();
        assertThat(ended.console()).as("it never served").noneMatch(line -> line.contains("Listening on"));
        assertThat(console).contains("@Locked(\"stock:{sku}\") on LockedReservations#reserve(String sku, int quantity):"
                + " config key " + key + " = 'banana' is not a duration; write ");
    }
}
