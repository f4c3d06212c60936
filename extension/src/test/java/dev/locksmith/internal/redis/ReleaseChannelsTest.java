package dev.locksmith.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The shared release channels when Redis refuses to renew them: what a reader of the warning may
 * rely on.
 */
class ReleaseChannelsTest {
    private static final String USER = "channels-listener";
    private static final String CHANNEL = "locksmith:{renewed}:released";

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    /**
     * The warning of a refused renewal says that the next wait subscribes again; a wait that
     * starts as it is logged must find the old confirmation already forgotten, or it trusts a
     * subscription Redis no longer has and hears no release.
     */
    @Test
    void aRefusedRenewalIsLoggedOnlyOnceTheSubscriptionNoLongerCounts() throws Exception {
        redis.node().command("ACL", "SETUSER", USER, "on", ">secret", "~*", "&*", "+@all");
        RedisClient client = RedisClient.create("redis://" + USER + ":secret@127.0.0.1:" + redis.node().port());
        Logger logger = Logger.getLogger(ReleaseChannels.class.getName());
        Map<String, Boolean> confirmedWhenLogged = new ConcurrentHashMap<>();
        try (StatefulRedisPubSubConnection<String, String> pubSub = client.connectPubSub()) {
            ReleaseChannels channels = new ReleaseChannels(List.of(pubSub), 1, false);
            ChannelSubscription subscription = channels.subscribe(CHANNEL, message -> { });
            subscription.subscribed().toCompletableFuture().get(5, TimeUnit.SECONDS);
            Handler probe = new Handler() {
                @Override
                public void publish(LogRecord record) {
                    if (record.getMessage().startsWith("Renewing")) {
                        confirmedWhenLogged.put(record.getMessage(), subscription.isConfirmed());
                    }
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            };
            logger.addHandler(probe);
            try {
                redis.node().command("ACL", "SETUSER", USER, "resetchannels");
                channels.renewSubscriptions();
                Await.until("the renewal's refusal is logged", Duration.ofSeconds(10),
                        () -> !confirmedWhenLogged.isEmpty());
            } finally {
                logger.removeHandler(probe);
            }
            assertThat(confirmedWhenLogged.values()).as("confirmed when the warning was logged: %s",
                    confirmedWhenLogged).containsOnly(false);
            subscription.close();
        } finally {
            client.shutdown();
            redis.node().command("ACL", "DELUSER", USER);
        }
    }
}
