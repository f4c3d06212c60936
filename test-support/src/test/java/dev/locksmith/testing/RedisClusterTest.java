package dev.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Three masters and three replicas: Lettuce writes keys of every slot range, sharded pub/sub
 * reaches subscribers (also from a script), and a killed master is replaced.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisClusterTest {
    private static final String PUBLISH_FROM_SCRIPT = "redis.call('set', KEYS[1], ARGV[1]) "
            + "return redis.call('spublish', KEYS[2], ARGV[1])";

    private static RedisCluster cluster;
    private static RedisClusterClient client;
    private static StatefulRedisClusterConnection<String, String> connection;
    private static RedisAdvancedClusterCommands<String, String> commands;

    @BeforeAll
    static void start() {
        long started = System.nanoTime();
        cluster = RedisCluster.start();
        System.out.printf("RedisCluster ready in %d ms%n", (System.nanoTime() - started) / 1_000_000);
        client = LettuceClients.cluster(cluster.seedsUri(), Duration.ofSeconds(2));
        connection = client.connect();
        commands = connection.sync();
    }

    @AfterAll
    static void stop() {
        if (connection != null) {
            connection.close();
        }
        if (client != null) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        if (cluster != null) {
            cluster.close();
        }
        assertThat(RedisChildren.alive()).isEmpty();
    }

    @Test
    void keysOfEverySlotRangeAreWrittenOnTheirMasters() {
        Set<Integer> masters = new HashSet<>();

        for (int i = 0; i < 300; i++) {
            commands.set("key-" + i, "value-" + i);
            masters.add(cluster.masterOfSlot(cluster.slotOf("key-" + i)).port());
        }

        assertThat(masters).hasSize(3);
        for (int i = 0; i < 300; i++) {
            String key = "key-" + i;
            assertThat(cluster.masterOfSlot(cluster.slotOf(key)).command("GET", key)).isEqualTo("value-" + i);
        }
    }

    @Test
    void shardedSubscriptionsAreMadeOnTheMasterOfEachChannelsSlot() throws Exception {
        List<String> channels = List.of("channel{" + tagInRange(0, 5460) + "}",
                "channel{" + tagInRange(5461, 10922) + "}", "channel{" + tagInRange(10923, 16383) + "}");
        try (Subscriber subscriber = Subscriber.sharded(client, channels.toArray(String[]::new))) {
            for (String channel : channels) {
                // Lettuce confirms a sharded subscription per node, asynchronously.
                Await.until("one subscriber of " + channel + " on the master of its slot", Duration.ofSeconds(10),
                        () -> numsub(cluster.masterOfSlot(cluster.slotOf(channel)), channel) == 1);
            }

            channels.forEach(channel -> commands.spublish(channel, "to-" + channel));

            assertThat(List.of(subscriber.next(), subscriber.next(), subscriber.next()))
                    .containsExactlyInAnyOrderElementsOf(channels.stream().map(c -> "to-" + c).toList());
        }
    }

    @Test
    void scriptPublishesToAShardChannelInItsKeysSlot() throws Exception {
        String tag = tagInRange(5461, 10922);
        String channel = "released{" + tag + "}";
        try (Subscriber subscriber = Subscriber.sharded(client, channel)) {

            Long receivers = commands.eval(PUBLISH_FROM_SCRIPT, ScriptOutputType.INTEGER,
                    new String[] {"lock{" + tag + "}", channel}, "from-script");

            assertThat(receivers).isEqualTo(1);
            assertThat(subscriber.next()).isEqualTo("from-script");
        }
    }

    @Test
    void scriptCannotPublishToAShardChannelOfAnotherSlot() {
        String tag = tagInRange(5461, 10922);
        String otherTag = tagInRange(10923, 16383);

        assertThatThrownBy(() -> commands.eval(PUBLISH_FROM_SCRIPT, ScriptOutputType.INTEGER,
                new String[] {"lock{" + tag + "}", "released{" + otherTag + "}"}, "x"))
                .isInstanceOf(RedisException.class).hasMessageContaining("CROSSSLOT");
        assertThatThrownBy(() -> commands.eval(
                "redis.call('set', KEYS[1], ARGV[1]) return redis.call('spublish', ARGV[2], ARGV[1])",
                ScriptOutputType.INTEGER, new String[] {"lock{" + tag + "}"}, "x", "released{" + otherTag + "}"))
                .as("a channel passed as an argument is checked too")
                .isInstanceOf(RedisException.class).hasMessageContaining("non local key");
    }

    /**
     * Lettuce 7.7 keeps a sharded subscription on its connection to the channel's master and
     * resubscribes only when that same connection comes back, which a killed master never does
     * (redis/lettuce#3213). The subscription is lost until the application subscribes again.
     */
    @Test
    @Order(Integer.MAX_VALUE) // kills a master of the shared cluster: after every test that needs all three
    void failoverMovesWritesToThePromotedReplicaButDropsShardedSubscriptionsUntilRenewed() throws Exception {
        String tag = tagInRange(10923, 16383);
        String key = "survivor{" + tag + "}";
        String channel = "released{" + tag + "}";
        commands.set(key, "before");
        commands.waitForReplication(1, 2000);
        try (Subscriber subscriber = Subscriber.sharded(client, channel)) {
            LocalRedisServer oldMaster = cluster.masterOfSlot(cluster.slotOf(key));

            long started = System.nanoTime();
            LocalRedisServer promoted = cluster.failoverKillingMasterOf(cluster.slotOf(key));
            System.out.printf("Cluster failover took %d ms%n", (System.nanoTime() - started) / 1_000_000);

            try {
                assertThat(promoted).isNotSameAs(oldMaster);
                long followed = System.nanoTime();
                Await.until("Lettuce writing on the promoted master", Duration.ofSeconds(15), () -> {
                    commands.set(key, "after");
                    return "after".equals(promoted.command("GET", key));
                }, cluster::describe);
                System.out.printf("Lettuce followed the cluster failover %d ms later%n",
                        (System.nanoTime() - followed) / 1_000_000);
                assertThat(numsub(promoted, channel)).as("sharded subscribers on the promoted master").isZero();
                assertThat(commands.spublish(channel, "lost")).isZero();
                assertThat(subscriber.poll(Duration.ofMillis(500))).isNull();

                subscriber.ssubscribe(channel);

                assertThat(numsub(promoted, channel)).isEqualTo(1);
                commands.spublish(channel, "renewed");
                assertThat(subscriber.next()).isEqualTo("renewed");
            } finally {
                cluster.rejoin(oldMaster);
            }
        }
    }

    @Test
    @Order(Integer.MAX_VALUE) // kills a master of the shared cluster: after every test that needs all three
    void classicSubscriptionMovesToAnotherNodeWhenItsNodeDies() throws Exception {
        try (Subscriber subscriber = Subscriber.classic(client, "classic")) {
            LocalRedisServer host = cluster.nodes().stream().filter(LocalRedisServer::isRunning)
                    .filter(node -> numsub(node, "classic", "NUMSUB") == 1).findFirst().orElseThrow();
            boolean hostWasMaster = "master".equals(host.info("replication").get("role"));

            long started = System.nanoTime();
            if (hostWasMaster) {
                cluster.failoverKilling(host);
            } else {
                host.kill();
            }

            try {
                Await.until("a classic message reaching the subscriber after " + host + " died",
                        Duration.ofSeconds(15), () -> {
                            commands.publish("classic", "after");
                            return subscriber.tookMessage();
                        }, cluster::describe);
                System.out.printf("classic subscription on a %s moved %d ms after the kill%n",
                        hostWasMaster ? "master" : "replica", (System.nanoTime() - started) / 1_000_000);
            } finally {
                cluster.rejoin(host);
            }
        }
    }

    @Test
    void scriptPublishesToAClassicChannelWhateverItsSlot() throws Exception {
        String channel = "released{" + tagInRange(0, 5460) + "}";
        try (Subscriber subscriber = Subscriber.classic(client, channel)) {

            commands.eval("redis.call('set', KEYS[1], ARGV[1]) return redis.call('publish', ARGV[2], ARGV[1])",
                    ScriptOutputType.INTEGER, new String[] {"lock{" + tagInRange(10923, 16383) + "}"},
                    "from-script", channel);

            assertThat(subscriber.next()).isEqualTo("from-script");
        }
    }

    private static long numsub(LocalRedisServer node, String channel) {
        return numsub(node, channel, "SHARDNUMSUB");
    }

    private static long numsub(LocalRedisServer node, String channel, String subcommand) {
        List<?> reply = (List<?>) RespClient.call(node.port(), "PUBSUB", subcommand, channel);
        return Long.parseLong(String.valueOf(reply.get(1)));
    }

    /** A hash tag whose slot lies in [first, last], so tests pick their master. */
    private static String tagInRange(int first, int last) {
        for (int i = 0; ; i++) {
            int slot = cluster.slotOf("{t" + i + "}");
            if (first <= slot && slot <= last) {
                return "t" + i;
            }
        }
    }

    /** Subscriptions on one Lettuce cluster pub/sub connection, classic or sharded. */
    private static final class Subscriber implements AutoCloseable {
        private final StatefulRedisClusterPubSubConnection<String, String> pubSub;
        private final BlockingQueue<String> messages = new LinkedBlockingQueue<>();

        private Subscriber(RedisClusterClient client) {
            pubSub = client.connectPubSub();
            pubSub.addListener(new RedisClusterPubSubAdapter<>() {
                @Override
                public void message(RedisClusterNode node, String channel, String message) {
                    messages.add(message);
                }

                @Override
                public void smessage(RedisClusterNode node, String channel, String message) {
                    messages.add(message);
                }
            });
        }

        static Subscriber sharded(RedisClusterClient client, String... channels) throws Exception {
            Subscriber subscriber = new Subscriber(client);
            for (String channel : channels) {
                subscriber.ssubscribe(channel);
            }
            return subscriber;
        }

        static Subscriber classic(RedisClusterClient client, String channel) throws Exception {
            Subscriber subscriber = new Subscriber(client);
            subscriber.pubSub.async().subscribe(channel).get(5, TimeUnit.SECONDS);
            return subscriber;
        }

        void ssubscribe(String channel) throws Exception {
            pubSub.async().ssubscribe(channel).get(5, TimeUnit.SECONDS);
        }

        String next() throws InterruptedException {
            String message = messages.poll(5, TimeUnit.SECONDS);
            assertThat(message).as("a message within 5 s").isNotNull();
            return message;
        }

        boolean tookMessage() {
            return messages.poll() != null;
        }

        String poll(Duration timeout) throws InterruptedException {
            return messages.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() {
            pubSub.close();
        }
    }
}
