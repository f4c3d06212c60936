package dev.locksmith.netty41;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.netty.util.Version;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * This artifact alone gives a Netty 4.1 class path on which Locksmith locks: Lettuce 6.8, no
 * Lettuce 7, and Netty 4.1.
 */
class OneDependencyTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void theArtifactBringsLettuce68AndLocksOnNetty41() throws Exception {
        assertThat(RedisClient.class.getProtectionDomain().getCodeSource().getLocation().toString())
                .contains("lettuce-core-6.8.");
        assertThat(Version.identify().get("netty-common").artifactVersion()).startsWith("4.1.");

        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).keyPrefix("netty41:").build()) {
            DistributedLock lock = locks.getLock("one-dependency");
            assertThat(lock.tryLock(1, TimeUnit.SECONDS)).isTrue();
            lock.unlock();
        }

        assertThat(redis.lockStateLeftBehind(1000)).isEmpty();
    }
}
