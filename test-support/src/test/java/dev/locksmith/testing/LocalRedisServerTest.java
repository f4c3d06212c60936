package dev.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The faults a single server plays: a pause that leaves the socket open and silent, and a
 * crash followed by a restart with no data on the same port.
 */
class LocalRedisServerTest {
    private final LocalRedisServer server = LocalRedisServer.start();
    private final RedisClient client = LettuceClients.standalone(Duration.ofMillis(300));

    @AfterEach
    void stop() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        server.close();
        assertThat(RedisChildren.alive()).isEmpty();
    }

    @Test
    void pausedServerAnswersNothingUntilResumed() {
        try (StatefulRedisConnection<String, String> connection = client.connect(LettuceClients.uri(server.uri()))) {
            RedisCommands<String, String> redis = connection.sync();
            redis.set("key", "before");

            server.pause();

            assertThatThrownBy(() -> redis.get("key")).isInstanceOf(RedisCommandTimeoutException.class);

            server.resume();

            assertThat(redis.get("key")).isEqualTo("before");
        }
    }

    @Test
    void closingAPausedServerStopsIt() {
        server.pause();

        server.close();

        assertThat(server.isRunning()).isFalse();
    }

    @Test
    void killAndRestartAfterDowntimeComesBackEmptyOnTheSamePort() throws Exception {
        try (StatefulRedisConnection<String, String> connection = client.connect(LettuceClients.uri(server.uri()))) {
            connection.sync().set("key", "lost");
            long pidBefore = server.pid();

            server.killAndRestartAfter(Duration.ofMillis(300)).get(15, TimeUnit.SECONDS);

            assertThat(server.pid()).isNotEqualTo(pidBefore);
            try (StatefulRedisConnection<String, String> fresh = client.connect(LettuceClients.uri(server.uri()))) {
                assertThat(fresh.sync().dbsize()).isZero();
            }
        }
    }

    @Test
    void closeCancelsAPendingRestart() throws Exception {
        var restart = server.killAndRestartAfter(Duration.ofMillis(200));

        server.close();

        assertThat(restart).isCancelled();
        assertThat(server.isRunning()).isFalse();
    }
}
