package dev.locksmith.netty41;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.testing.JavaProcess;
import dev.locksmith.testing.RedisServerExtension;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a Netty 4.1 runtime sees when a build brings Lettuce 7 anyway (the plain
 * {@code dev.locksmith:locksmith}, without this artifact or a Lettuce pin): a JVM whose class path is
 * this module's, with Lettuce 6.8 swapped for Lettuce 7, fails the builder and either CDI
 * deployment with the fix, before any connection, instead of a {@code NoClassDefFoundError} at the
 * first lock call.
 */
class NettyLineMismatchTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @ParameterizedTest
    @ValueSource(strings = {"builder", "portable", "lite"})
    void lettuce7OnNetty41FailsBeforeTheFirstCallNamingTheFix(String how) throws IOException {
        String classPath = classPathWithLettuce7();

        try (JavaProcess app = JavaProcess.start(classPath, List.of("-Dlocksmith.redis.uri=" + redis.uri()),
                MismatchedLinesApp.class, how, redis.uri())) {
            int exit = app.awaitExit(Duration.ofMinutes(1));
            String output = String.join("\n", app.output());

            assertThat(exit).as("exit code; output:\n%s", output).isEqualTo(3);
            assertThat(output).contains("FAILED", "Lettuce 7.", "with Netty 4.1.", "needs Netty 4.2",
                    "depend on dev.locksmith:locksmith-netty41 in place of dev.locksmith:locksmith",
                    "pin io.lettuce:lettuce-core to 6.8.2.RELEASE");
            assertThat(output).as("failed by the check, before anything loaded the Netty 4.2 class")
                    .doesNotContain("CAUSE java.lang.NoClassDefFoundError", "STARTED");
        }
        assertThat(redis.lockStateLeftBehind(1000)).isEmpty();
    }

    private static String classPathWithLettuce7() throws IOException {
        Path lettuce7;
        try (Stream<Path> jars = Files.list(Path.of(System.getProperty("locksmith.test.lettuce7.dir")))) {
            lettuce7 = jars.filter(jar -> jar.getFileName().toString().startsWith("lettuce-core-7.")).findFirst()
                    .orElseThrow(() -> new AssertionError("the build copies Lettuce 7 next to the tests"));
        }
        List<String> entries = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        assertThat(entries).as("this module's class path has Lettuce 6.8 and Netty 4.1")
                .anyMatch(entry -> entry.contains("lettuce-core-6.8.")).anyMatch(entry -> entry.contains("netty-common-4.1."));
        return Stream.concat(entries.stream().filter(entry -> !entry.contains("lettuce-core-")),
                Stream.of(lettuce7.toString())).reduce((a, b) -> a + File.pathSeparator + b).orElseThrow();
    }
}
