package dev.locksmith.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.Locksmith;
import io.lettuce.core.RedisClient;
import io.netty.util.Version;
import org.junit.jupiter.api.Test;

/**
 * The tests this module runs prove something only if the class path is the one a Netty 4.1
 * runtime gives: Lettuce 6.8, Netty 4.1 (without the Netty 4.2 classes Lettuce 7 needs), and
 * the library's own jar, built with Lettuce 7.
 */
class LettuceLineTest {
    @Test
    void theLibraryBuiltWithLettuce7RunsHereOnLettuce68AndNetty41() {
        assertThat(jarOf(RedisClient.class)).contains("lettuce-core-6.8.");
        assertThat(Version.identify().get("netty-common").artifactVersion()).startsWith("4.1.");
        // What Lettuce 7 fails on in Quarkus: NoClassDefFoundError io/netty/channel/MultiThreadIoEventLoopGroup.
        assertThatThrownBy(() -> Class.forName("io.netty.channel.MultiThreadIoEventLoopGroup"))
                .isInstanceOf(ClassNotFoundException.class);
        assertThat(jarOf(Locksmith.class)).as("the library comes from the extension module, not from here")
                .doesNotContain("lettuce6-compat");
    }

    private static String jarOf(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation().toString();
    }
}
