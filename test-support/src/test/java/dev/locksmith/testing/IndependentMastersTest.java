package dev.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Independent masters, as RedLock uses them: each one can die and come back empty on its port
 * while the others keep their data.
 */
class IndependentMastersTest {
    private final IndependentMasters masters = IndependentMasters.start(3);
    private final RedisClient client = LettuceClients.standalone(Duration.ofSeconds(2));

    @AfterEach
    void stop() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        masters.close();
        assertThat(RedisChildren.alive()).isEmpty();
    }

    @Test
    void urisListsEveryMasterInIndexOrder() {
        assertThat(masters.uris()).isEqualTo(masters.uri(0) + "," + masters.uri(1) + "," + masters.uri(2));
        assertThat(masters.nodes()).extracting(LocalRedisServer::port).doesNotHaveDuplicates();
    }

    @Test
    void restartedMasterComesBackEmptyOnTheSamePortWhileTheOthersKeepTheirData() {
        for (int i = 0; i < masters.size(); i++) {
            set(i, "key", "on-" + i);
        }

        masters.kill(1);

        assertThatThrownBy(() -> client.connect(LettuceClients.uri(masters.uri(1))))
                .isInstanceOf(RedisConnectionException.class);

        masters.restart(1);

        assertThat(get(1, "key")).isNull();
        assertThat(get(0, "key")).isEqualTo("on-0");
        assertThat(get(2, "key")).isEqualTo("on-2");
    }

    private void set(int index, String key, String value) {
        try (StatefulRedisConnection<String, String> connection = client.connect(LettuceClients.uri(masters.uri(index)))) {
            connection.sync().set(key, value);
        }
    }

    private String get(int index, String key) {
        try (StatefulRedisConnection<String, String> connection = client.connect(LettuceClients.uri(masters.uri(index)))) {
            return connection.sync().get(key);
        }
    }
}
