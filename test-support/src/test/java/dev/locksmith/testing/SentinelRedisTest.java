package dev.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Three Sentinels over a master and two replicas: Lettuce finds the master through the
 * Sentinel URI, and follows it when a failover promotes a replica.
 */
class SentinelRedisTest {
    private static SentinelRedis redis;
    private static RedisClient client;

    @BeforeAll
    static void start() {
        long started = System.nanoTime();
        redis = SentinelRedis.start();
        System.out.printf("SentinelRedis ready in %d ms%n", (System.nanoTime() - started) / 1_000_000);
        client = LettuceClients.standalone(Duration.ofSeconds(1));
    }

    @AfterAll
    static void stop() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        redis.close();
        assertThat(RedisChildren.alive()).isEmpty();
    }

    @Test
    void sentinelUriNamesThreeSentinelsAndTheMaster() {
        RedisURI uri = RedisURI.create(redis.sentinelUri());

        assertThat(uri.getSentinels()).extracting(RedisURI::getPort)
                .containsExactlyElementsOf(redis.sentinels().stream().map(LocalRedisServer::port).toList());
        assertThat(uri.getSentinelMasterId()).isEqualTo(SentinelRedis.MASTER_NAME);
    }

    @Test
    void lettuceThroughTheSentinelUriWritesOnTheMaster() {
        try (StatefulRedisConnection<String, String> connection = client.connect(RedisURI.create(redis.sentinelUri()))) {
            connection.sync().set("written-through-sentinel", "yes");

            assertThat(redis.master().command("GET", "written-through-sentinel")).isEqualTo("yes");
        }
    }

    @Test
    void failoverPromotesAReplicaAndLettuceFollowsIt() {
        try (StatefulRedisConnection<String, String> connection = client.connect(RedisURI.create(redis.sentinelUri()))) {
            connection.sync().set("before-failover", "replicated");
            assertThat(connection.sync().waitForReplication(redis.replicas().size(), 2000))
                    .isEqualTo(redis.replicas().size());
            LocalRedisServer oldMaster = redis.master();

            long started = System.nanoTime();
            LocalRedisServer promoted = redis.failover();
            System.out.printf("Sentinel failover took %d ms%n", (System.nanoTime() - started) / 1_000_000);

            assertThat(promoted).isNotSameAs(oldMaster);
            assertThat(promoted.info("replication")).containsEntry("role", "master");
            assertThat(redis.replicas()).allMatch(replica -> replica.isSyncedReplicaOf(promoted));
            long followed = System.nanoTime();
            Await.until("Lettuce writing on the promoted master", Duration.ofSeconds(10), () -> {
                connection.sync().set("after-failover", "written");
                return "written".equals(promoted.command("GET", "after-failover"));
            }, redis::describe);
            System.out.printf("Lettuce followed the failover %d ms later%n", (System.nanoTime() - followed) / 1_000_000);
            assertThat(connection.sync().get("before-failover")).isEqualTo("replicated");
        }
    }
}
