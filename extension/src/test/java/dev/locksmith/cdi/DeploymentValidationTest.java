package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.LockType;
import dev.locksmith.Locked;
import dev.locksmith.WhenHeld;
import dev.locksmith.testing.CdiContainers;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code @Locked} use is checked when the container starts: a mistake fails the deployment
 * with a message that names the class, the method and the fix. No Redis is needed for that.
 */
class DeploymentValidationTest {

    private static String deploymentFailure(Map<String, String> config, Class<?>... beans) {
        Throwable failure = CdiContainers.startFailure(config, beans);

        assertThat(failure).as("the deployment fails").isInstanceOf(DeploymentException.class);
        return CdiContainers.messages(failure);
    }

    private static String deploymentFailure(Class<?>... beans) {
        return deploymentFailure(Map.of(), beans);
    }

    @Test
    void aTemplateNamingNoParameterFailsWithTheParametersAndTheFix() {
        String message = deploymentFailure(ShopService.class);

        assertThat(message).contains("@Locked(\"stock:{skuu}\") on ShopService#reserve(String sku, int qty):"
                + " no parameter named 'skuu'. Parameters: [sku, qty]. Compile with -parameters, or use {0}.");
    }

    @Test
    void aPositionBeyondTheParametersFails() {
        String message = deploymentFailure(ByPosition.class);

        assertThat(message).contains("@Locked(\"order:{2}\") on ByPosition#pay(long orderId, String currency):"
                + " no parameter {2}: the method has 2 parameter(s), counted from {0}");
    }

    @Test
    void aPropertyTheParameterTypeLacksFailsListingItsProperties() {
        String message = deploymentFailure(Shipping.class);

        assertThat(message).contains("Shipping#ship(Order order): '{order.customer.nmae}':"
                + " Customer has no property 'nmae'").contains("Properties: [id, name, vip]");
    }

    @Test
    void anUnclosedPlaceholderFails() {
        String message = deploymentFailure(Unclosed.class);

        assertThat(message).contains("Unclosed#run(String id): the placeholder at position 4 is not closed");
    }

    @Test
    void aTypeLevelTemplateMustFitEveryMethod() {
        String message = deploymentFailure(TypeLevel.class);

        assertThat(message).contains("@Locked(\"tenant:{tenant}\") on TypeLevel#stats():"
                + " no parameter named 'tenant'");
        assertThat(message).doesNotContain("TypeLevel#refresh").doesNotContain("TypeLevel#warmUp");
    }

    @Test
    void aNegativeWaitTimeFails() {
        String message = deploymentFailure(NegativeWait.class);

        assertThat(message).contains("NegativeWait#run(): waitTime = -5 SECONDS is negative."
                + " Use -1 for the configured default (locksmith.wait-time), 0 for a single attempt");
    }

    @Test
    void aZeroOrNegativeLeaseTimeFails() {
        String message = deploymentFailure(BadLeases.class);

        assertThat(message).contains("BadLeases#zero(): leaseTime = 0 MILLIS is not a lease."
                + " Use -1 for a lease the watchdog keeps");
        assertThat(message).contains("BadLeases#negative(): leaseTime = -3 SECONDS is not a lease");
    }

    @Test
    void aUnitWithoutFixedLengthFails() {
        String message = deploymentFailure(MonthlyUnit.class);

        assertThat(message).contains("MonthlyUnit#run(): unit MONTHS has no fixed length");
    }

    @Test
    void aMinimumHoldLongerThanTheLeaseFailsNamingTheMethodTheValuesAndTheFix() {
        String message = deploymentFailure(OverlongMinimum.class);

        assertThat(message).contains("@Locked(\"report\") on OverlongMinimum#report(): minHold = 10s is longer than"
                + " leaseTime = 5s. The lease is the longest the lock is kept (ShedLock's lockAtMostFor), the minimum"
                + " hold the shortest (lockAtLeastFor): shorten minHold, lengthen leaseTime, or use leaseTime = -1");
    }

    @Test
    void aMinimumHoldOverrideIsCheckedAgainstTheLeaseToo() {
        String key = Overridden.class.getName() + "/run/Locked/minHold";

        String message = deploymentFailure(Map.of(key, "2m", "Locked/leaseTime", "1m"), Overridden.class);

        assertThat(message).contains("Overridden#run(): minHold = 2m is longer than leaseTime = 1m");
    }

    @Test
    void aMinimumHoldOnAReadWriteLockFails() {
        String message = deploymentFailure(ReadJob.class);

        assertThat(message).contains("ReadJob#read(): minHold = 5s with type = READ: only a REENTRANT or FAIR lock can"
                + " be kept after its holder returns");
    }

    @Test
    void skippingAMethodThatReturnsAPrimitiveFailsWithTheFix() {
        String message = deploymentFailure(CountingJob.class);

        assertThat(message).contains("CountingJob#count(): whenHeld = SKIP, but the method returns int, which a"
                + " skipped call has no value for. Return void, a wrapper such as Integer (null when skipped) or"
                + " Optional (empty when skipped)");
    }

    @Test
    void aBadOverrideFailsNamingTheKeyTheClassAndTheMethod() {
        String key = Overridden.class.getName() + "/run/Locked/waitTime";

        String message = deploymentFailure(Map.of(key, "forever"), Overridden.class);

        assertThat(message).contains("Overridden#run(): config key " + key + " = 'forever' is not a duration;"
                + " write ISO-8601 such as PT30S, or a number with ms, s, m or h");
    }

    @Test
    void aNegativeOverrideFails() {
        String message = deploymentFailure(Map.of("Locked/leaseTime", "-2s"), Overridden.class);

        assertThat(message).contains("Overridden#run(): config key Locked/leaseTime = '-2s' is not a lease");
    }

    @Test
    void everyMistakeIsReportedNotOnlyTheFirst() {
        String message = deploymentFailure(ShopService.class, NegativeWait.class);

        assertThat(message).contains("ShopService#reserve").contains("NegativeWait#run");
    }

    @Test
    void aTemplateByNameInAClassCompiledWithoutParameterNamesSaysToCompileWithParameters(@TempDir Path dir)
            throws Exception {
        Class<?> legacy = compileWithoutParameterNames(dir, "LegacyService", """
                package legacy;
                @jakarta.enterprise.context.ApplicationScoped
                public class LegacyService {
                    @dev.locksmith.Locked("invoice:{invoiceId}")
                    public void settle(String invoiceId) {
                    }
                }
                """);

        // As a container does, the thread that deploys sees the application's classes: the build
        // compatible extension, which gets class names, loads them through it.
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(legacy.getClassLoader());
        String message;
        try {
            message = deploymentFailure(legacy);
        } finally {
            thread.setContextClassLoader(previous);
        }

        assertThat(message).contains("@Locked(\"invoice:{invoiceId}\") on LegacyService#settle(String):"
                + " no parameter named 'invoiceId': the class file has no parameter names."
                + " Compile with -parameters, or use {0}.");
    }

    private static Class<?> compileWithoutParameterNames(Path dir, String className, String source)
            throws IOException, ClassNotFoundException {
        Path file = dir.resolve("legacy").resolve(className + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int exit = javac.run(null, null, null, "-proc:none", "-cp", System.getProperty("java.class.path"),
                "-d", dir.toString(), file.toString());
        assertThat(exit).as("javac exit code").isZero();
        URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
                DeploymentValidationTest.class.getClassLoader());
        return loader.loadClass("legacy." + className);
    }

    @ApplicationScoped
    static class ShopService {
        @Locked("stock:{skuu}")
        public void reserve(String sku, int qty) {
        }
    }

    @ApplicationScoped
    static class ByPosition {
        @Locked("order:{2}")
        public void pay(long orderId, String currency) {
        }
    }

    record Customer(String id, String name, boolean vip) {
    }

    record Order(String id, Customer customer) {
    }

    @ApplicationScoped
    static class Shipping {
        @Locked("customer:{order.customer.nmae}")
        public void ship(Order order) {
        }
    }

    @ApplicationScoped
    static class Unclosed {
        @Locked("job:{id")
        public void run(String id) {
        }
    }

    @ApplicationScoped
    @Locked("tenant:{tenant}")
    static class TypeLevel {
        @PostConstruct
        void warmUp() {
        }

        public void refresh(String tenant) {
        }

        public List<String> stats() {
            return List.of();
        }
    }

    @ApplicationScoped
    static class NegativeWait {
        @Locked(value = "x", waitTime = -5)
        public void run() {
        }
    }

    @ApplicationScoped
    static class BadLeases {
        @Locked(value = "zero", leaseTime = 0, unit = ChronoUnit.MILLIS)
        public void zero() {
        }

        @Locked(value = "negative", leaseTime = -3)
        public void negative() {
        }
    }

    @ApplicationScoped
    static class OverlongMinimum {
        @Locked(value = "report", leaseTime = 5, minHold = 10, whenHeld = WhenHeld.SKIP)
        public void report() {
        }
    }

    @ApplicationScoped
    static class ReadJob {
        @Locked(value = "read", type = LockType.READ, minHold = 5)
        public void read() {
        }
    }

    @ApplicationScoped
    static class CountingJob {
        @Locked(value = "count", whenHeld = WhenHeld.SKIP)
        public int count() {
            return 1;
        }
    }

    @ApplicationScoped
    static class MonthlyUnit {
        @Locked(value = "monthly", waitTime = 1, unit = ChronoUnit.MONTHS)
        public void run() {
        }
    }

    @ApplicationScoped
    static class Overridden {
        @Locked("overridden")
        public void run() {
        }
    }
}
