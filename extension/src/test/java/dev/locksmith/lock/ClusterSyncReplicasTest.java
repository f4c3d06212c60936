package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.RedisCluster;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code syncReplicas} in a cluster: {@code WAIT} goes to the master of the lock's own slot, on
 * the connection that wrote the lock, so it counts that master's replicas' copies of the lock,
 * not some other node's copies of nothing.
 */
class ClusterSyncReplicasTest {
    private static RedisCluster cluster;

    @BeforeAll
    static void start() {
        cluster = RedisCluster.start();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void everyMasterConfirmsThroughItsOwnReplicaAndIsRefusedWhenThatReplicaCannotAcknowledge() throws Exception {
        try (LockManager locks = Locksmith.builder().mode(RedisMode.CLUSTER).redisUri(cluster.seedsUri())
                .syncReplicas(1, Duration.ofMillis(500)).build()) {
            for (Map.Entry<LocalRedisServer, String> onMaster : oneNamePerMaster().entrySet()) {
                LocalRedisServer master = onMaster.getKey();
                String name = onMaster.getValue();
                DistributedLock lock = locks.getLock(name);

                assertThat(lock.tryLock()).as("%s on %s, whose replica acknowledges", name, master).isTrue();
                lock.unlock();

                LocalRedisServer replica = cluster.replicasOf(master).get(0);
                replica.pause();
                try {
                    assertThatThrownBy(lock::tryLock).as("%s on %s, whose replica is frozen", name, master)
                            .isInstanceOf(LockException.class).hasMessageContaining("0 of 1 replica");
                } finally {
                    replica.resume();
                }
                Await.until("the refused grant of " + name + " is taken back", Duration.ofSeconds(10),
                        () -> "0".equals(master.command("EXISTS", "locksmith:{" + name + "}")));
                assertThat(lock.isHeldByCurrentThread()).isFalse();
                cluster.awaitHealthy(Duration.ofSeconds(30));
            }
        }
    }

    /**
     * @return a lock name whose keys live on each master, by master
     */
    private static Map<LocalRedisServer, String> oneNamePerMaster() {
        Map<LocalRedisServer, String> names = new LinkedHashMap<>();
        for (int i = 0; names.size() < 3 && i < 1_000; i++) {
            String name = "sync-" + i;
            names.putIfAbsent(cluster.masterOfSlot(cluster.slotOf("locksmith:{" + name + "}")), name);
        }
        assertThat(names).as("a name on each of the three masters").hasSize(3);
        return names;
    }
}
