package dev.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The proxy plays a partition: stalled, commands time out on an open connection; resumed,
 * what was held back arrives; cut, the client reconnects.
 */
class StallingProxyTest {
    private final LocalRedisServer redis = LocalRedisServer.start();
    private final StallingProxy proxy = StallingProxy.inFrontOf(redis);
    private final RedisClient client = LettuceClients.standalone(Duration.ofMillis(300));

    @AfterEach
    void stop() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        proxy.close();
        redis.close();
        assertThat(RedisChildren.alive()).isEmpty();
    }

    @Test
    void stalledProxyMakesCommandsTimeOutOnAnOpenConnectionUntilResumed() {
        try (StatefulRedisConnection<String, String> connection = client.connect(LettuceClients.uri(proxy.uri()))) {
            RedisCommands<String, String> commands = connection.sync();
            commands.set("key", "before");

            proxy.stall();

            assertThatThrownBy(() -> commands.set("key", "sent-while-stalled"))
                    .isInstanceOf(RedisCommandTimeoutException.class);
            assertThat(connection.isOpen()).isTrue();
            assertThat(proxy.connections()).isEqualTo(1);

            proxy.resume();

            assertThat(commands.get("key")).as("the timed-out command was held back, not dropped")
                    .isEqualTo("sent-while-stalled");
        }
    }

    @Test
    void cutConnectionsAreReopenedByTheClient() {
        try (StatefulRedisConnection<String, String> connection = client.connect(LettuceClients.uri(proxy.uri()))) {
            connection.sync().set("key", "kept");

            proxy.cutAll();

            Await.until("Lettuce reconnecting through the proxy", Duration.ofSeconds(5),
                    () -> "kept".equals(connection.sync().get("key")), redis::describe);
            assertThat(proxy.connections()).isEqualTo(1);
        }
    }

    @Test
    void closedProxyRefusesNewConnections() {
        proxy.close();

        assertThatThrownBy(() -> client.connect(LettuceClients.uri(proxy.uri())))
                .isInstanceOf(io.lettuce.core.RedisConnectionException.class);
    }
}
