package dev.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A master with two replicas: writes reach the replicas, and a killed master stays dead.
 */
class ReplicatedRedisTest {
    private final ReplicatedRedis redis = ReplicatedRedis.start(2);
    private final RedisClient client = LettuceClients.standalone(Duration.ofSeconds(2));

    @AfterEach
    void stop() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        redis.close();
        assertThat(RedisChildren.alive()).isEmpty();
    }

    @Test
    void theMasterCountsEveryReplicaOnlineOnceStartReturns() {
        // WAIT counts a replica only once its master has it online, which after a diskless sync
        // comes with the replica's first ACK, up to a second after the replica's link is up.
        long online = redis.master().info("replication").entrySet().stream()
                .filter(field -> field.getKey().startsWith("slave") && field.getValue().contains("state=online"))
                .count();

        assertThat(online).isEqualTo(2);
    }

    @Test
    void writesOnTheMasterReachEveryReplica() {
        try (StatefulRedisConnection<String, String> master = client.connect(LettuceClients.uri(redis.master().uri()))) {
            master.sync().set("key", "replicated");

            long acknowledged = master.sync().waitForReplication(2, 2000);

            assertThat(acknowledged).isEqualTo(2);
            for (LocalRedisServer replica : redis.replicas()) {
                try (StatefulRedisConnection<String, String> read = client.connect(LettuceClients.uri(replica.uri()))) {
                    assertThat(read.sync().get("key")).as("on %s", replica).isEqualTo("replicated");
                }
            }
        }
    }

    @Test
    void killedMasterLeavesReplicasServingReadsWithTheLinkDown() {
        try (StatefulRedisConnection<String, String> master = client.connect(LettuceClients.uri(redis.master().uri()))) {
            master.sync().set("key", "kept");
            master.sync().waitForReplication(2, 2000);
        }

        redis.killMaster();

        for (LocalRedisServer replica : redis.replicas()) {
            Await.until("link down on " + replica, Duration.ofSeconds(5),
                    () -> "down".equals(replica.info("replication").get("master_link_status")), replica::describe);
            try (StatefulRedisConnection<String, String> read = client.connect(LettuceClients.uri(replica.uri()))) {
                assertThat(read.sync().get("key")).isEqualTo("kept");
            }
        }
    }
}
