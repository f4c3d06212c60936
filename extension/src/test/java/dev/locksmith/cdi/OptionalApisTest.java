package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.testing.JavaProcess;
import dev.locksmith.testing.RedisServerExtension;
import java.io.File;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each optional API really is optional: a CDI application deploys and locks in a JVM whose class
 * path lacks that API's jars (not merely a class path where a {@code provided} API happens to
 * be), and Locksmith's startup line says which part is off.
 */
class OptionalApisTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    /**
     * What is taken off the class path, by jar name, and the title the startup line uses.
     */
    enum Absent {
        NOTHING(null),
        MICROPROFILE_HEALTH("MicroProfile Health", "microprofile-health-api"),
        MICROPROFILE_CONFIG("MicroProfile Config", "microprofile-config-api", "smallrye-config"),
        JTA("Jakarta Transactions", "jakarta.transaction-api", "narayana", "jboss-transaction-spi"),
        CONCURRENCY("Jakarta Concurrency", "jakarta.enterprise.concurrent-api"),
        ENTERPRISE_BEANS(null, "jakarta.ejb-api"),
        OPENTELEMETRY("OpenTelemetry", "opentelemetry-"),
        /** Only {@code Fence.check(EntityManager, ...)} uses it; the JDBC fence must not need it. */
        PERSISTENCE(null, "jakarta.persistence-api", "hibernate-"),
        /** Not a jar: a JDK module, hidden the way WildFly hides it, by leaving it out of the module graph. */
        FLIGHT_RECORDER("Flight Recorder"),
        ALL_OF_THEM(null, "microprofile-health-api", "microprofile-config-api", "smallrye-config",
                "jakarta.transaction-api", "narayana", "jboss-transaction-spi", "jakarta.enterprise.concurrent-api",
                "jakarta.ejb-api", "opentelemetry-", "jakarta.persistence-api", "hibernate-");

        final String title;
        final List<String> jars;

        Absent(String title, String... jars) {
            this.title = title;
            this.jars = List.of(jars);
        }
    }

    @ParameterizedTest
    @EnumSource(Absent.class)
    void anApplicationDeploysAndLocksWithoutIt(Absent absent) {
        List<String> full = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> trimmed = full.stream().filter(entry -> absent.jars.stream().noneMatch(entry::contains)).toList();
        List<String> limits = absent == Absent.FLIGHT_RECORDER || absent == Absent.ALL_OF_THEM
                ? List.of("--limit-modules", "java.se,jdk.unsupported,jdk.crypto.ec,jdk.zipfs,jdk.localedata,jdk.charsets,jdk.naming.dns") : List.of();
        for (String jar : absent.jars) {
            assertThat(full).as("the test class path has %s, so taking it away proves something", jar)
                    .anyMatch(entry -> entry.contains(jar));
        }
        List<String> options = new java.util.ArrayList<>(limits);
        options.add("-Dlocksmith.redis.uri=" + redis.uri());
        options.add("-Dlocksmith.key-prefix=optional-" + absent.name().toLowerCase() + ":");
        try (JavaProcess app = JavaProcess.start(String.join(File.pathSeparator, trimmed), options,
                OptionalApisApp.class)) {
            int exit = app.awaitExit(Duration.ofMinutes(2));
            String output = String.join("\n", app.output());
            assertThat(exit).as("exit code; output:\n%s", output).isZero();
            assertThat(output).containsPattern("OK " + OptionalApisApp.CALLS + " held-after=false fence=[1-9]")
                    .doesNotContain("NoClassDefFoundError", "ClassNotFoundException");
            String startup = app.output().stream().filter(line -> line.contains("@Locked method(s) checked"))
                    .collect(Collectors.joining("\n"));
            assertThat(startup).as("one startup line").isNotEmpty().doesNotContain("\n");
            if (absent == Absent.ALL_OF_THEM) {
                assertThat(startup).contains("MicroProfile Config off", "MicroProfile Health off",
                        "Jakarta Transactions off", "Jakarta Concurrency off", "OpenTelemetry off", "Flight Recorder off");
            } else if (absent.title != null) {
                assertThat(startup).contains(absent.title + " off");
            } else {
                assertThat(startup).doesNotContain(" off");
            }
        }
        assertThat(redis.lockStateLeftBehind(1000)).isEmpty();
    }
}
