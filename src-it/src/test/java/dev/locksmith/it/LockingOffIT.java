package dev.locksmith.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The control experiment: the same two servers and the same hammer, with
 * {@code sample.locking.enabled=false}. Without the lock, concurrent reservations read the same
 * level and overwrite each other, so more units are reserved than exist. This proves the hammer
 * in {@link SampleChecks} can fail, and that what keeps it green is the lock.
 */
class LockingOffIT {
    @RegisterExtension
    static final SampleCluster cluster = SampleCluster.sharingPostgres(LibertyRuntime.SAMPLE, 2).lockingEnabled(false);

    @Test
    void withoutTheLockTwoServersOversell() throws InterruptedException {
        String sku = SampleCluster.freshSku("unlocked");
        cluster.server(0).restock(sku, 50);

        List<Reply> replies = ReservationHammer.hammer(cluster.clients(), List.of(Via.values()), sku, 200, 16);

        long reserved = ReservationHammer.count(replies, 201);
        assertThat(cluster.server(0).info().flag("locking")).isFalse();
        assertThat(replies.stream().filter(reply -> reply.status() == 201).map(reply -> reply.string("via")).distinct())
                .containsExactly("unlocked");
        assertThat(reserved).as("reservations accepted for 50 units").isGreaterThan(50);
        assertThat(cluster.postgres().reservedUnits(sku)).as("units reserved in the database").isGreaterThan(50);
    }
}
