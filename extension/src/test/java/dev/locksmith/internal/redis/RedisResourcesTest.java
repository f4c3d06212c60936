package dev.locksmith.internal.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.RedisMode;
import io.lettuce.core.resource.DefaultClientResources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A manager of one server puts its command and pub/sub connections on one I/O thread, so that the
 * attempt sent when an offer is heard needs no second thread woken to write it; a manager of
 * several servers keeps Lettuce's default.
 */
class RedisResourcesTest {

    @ParameterizedTest
    @EnumSource(value = RedisMode.class, names = {"STANDALONE", "SENTINEL"})
    void aManagerOfOneServerHasOneIoThread(RedisMode mode) {
        RedisResources resources = RedisResources.create(null, mode);
        try {
            assertThat(resources.lettuce().eventLoopGroupProvider().threadPoolSize()).isEqualTo(1);
        } finally {
            resources.close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = RedisMode.class, names = {"CLUSTER", "REDLOCK"})
    void aManagerOfSeveralServersKeepsLettucesDefault(RedisMode mode) {
        RedisResources resources = RedisResources.create(null, mode);
        try {
            assertThat(resources.lettuce().eventLoopGroupProvider().threadPoolSize()).isEqualTo(DefaultClientResources.DEFAULT_IO_THREADS);
        } finally {
            resources.close();
        }
    }
}
