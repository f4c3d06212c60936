package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.JobInfo;
import dev.locksmith.LastRun;
import dev.locksmith.LockHolder;
import dev.locksmith.LockManager;
import dev.locksmith.Locked;
import dev.locksmith.WhenHeld;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.CdiContainers.Application;
import dev.locksmith.testing.RedisServerExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code @Locked} jobs named apart from their locks ({@code job}), times written with their own
 * unit ({@code minHoldDuration = "1.5s"} beside {@code leaseTime = 60}), and the deployment
 * checks of both and of {@code {slot}}.
 */
class LockedJobNamesTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static Map<String, String> config() {
        return Map.of("locksmith.redis.uri", redis.uri());
    }

    @Test
    void aJobNamedApartIsDescribedByItsNameWhateverDayRanIt() {
        try (Application app = CdiContainers.start(config(), Interest.class)) {
            Interest interest = app.get(Interest.class);
            LockManager locks = app.get(LockManager.class);

            interest.pay("2026-03-01");
            interest.pay("2026-03-02");
            interest.pay("2026-03-03");

            JobInfo job = locks.describeJob("interest");
            assertThat(job.recentRuns()).extracting(LastRun::lock)
                    .containsExactly("interest:2026-03-03", "interest:2026-03-02", "interest:2026-03-01");
            assertThat(locks.describe("interest").lastRun()).contains(job.recentRuns().get(0));
            assertThat(locks.describe("interest:2026-03-03").lastRun()).as("nothing is kept per day").isEmpty();
        }
    }

    @Test
    void eachTimeKeepsItsOwnUnit() {
        try (Application app = CdiContainers.start(config(), Interest.class)) {
            Interest interest = app.get(Interest.class);
            LockManager locks = app.get(LockManager.class);
            Duration[] leaseWhileRunning = new Duration[1];

            interest.mixed(() -> leaseWhileRunning[0] = locks.getLock("mixed").remainingLease());

            assertThat(leaseWhileRunning[0]).as("leaseTime = 60, in the default unit: seconds")
                    .isBetween(Duration.ofSeconds(55), Duration.ofSeconds(60));
            LockHolder kept = locks.describe("mixed").holders().get(0);
            assertThat(kept.mode()).isEqualTo("kept");
            assertThat(kept.leaseLeft()).as("minHoldDuration = \"1.5s\"")
                    .isBetween(Duration.ofMillis(1_000), Duration.ofMillis(1_500));
            Await.until("the minimum hold is over", Duration.ofSeconds(5), () -> !locks.getLock("mixed").isLocked());
        }
    }

    @Test
    void aTimeWrittenBothWaysFailsTheDeploymentNamingBoth() {
        Throwable failure = CdiContainers.startFailure(config(), BothWays.class);

        assertThat(failure).isInstanceOf(DeploymentException.class);
        assertThat(CdiContainers.messages(failure)).contains("BothWays#run()")
                .contains("minHold = 1500 and minHoldDuration = \"1.5s\" are both set; keep one");
    }

    @Test
    void aSkippingJobThatWouldWaitOutItsMinimumHoldFailsTheDeployment() {
        Throwable failure = CdiContainers.startFailure(config(), WaitsOutTheHold.class);

        assertThat(failure).isInstanceOf(DeploymentException.class);
        assertThat(CdiContainers.messages(failure)).contains("WaitsOutTheHold#run()")
                .contains("waitTime = 2s is not shorter than minHold = 1500ms with whenHeld = SKIP")
                .contains("Use waitTime = 0");
    }

    @Test
    void aTextThatIsNoDurationFailsTheDeployment() {
        Throwable failure = CdiContainers.startFailure(config(), NoDuration.class);

        assertThat(failure).isInstanceOf(DeploymentException.class);
        assertThat(CdiContainers.messages(failure)).contains("NoDuration#run()")
                .contains("leaseDuration = \"a minute\" is not a duration; write ISO-8601");
    }

    @Test
    void aSlotOnAMethodNoTimerCallsFailsTheDeploymentNamingTheFix() {
        Throwable failure = CdiContainers.startFailure(config(), NoTimer.class);

        assertThat(failure).isInstanceOf(DeploymentException.class);
        assertThat(CdiContainers.messages(failure)).contains("NoTimer#run()")
                .contains("{slot} is the scheduled time of the method's current firing")
                .contains("Add a ScheduledExecution parameter (Quarkus)");
    }

    @ApplicationScoped
    static class Interest {
        @Locked(value = "interest:{day}", job = "interest", whenHeld = WhenHeld.SKIP, minHoldDuration = "100ms")
        public void pay(String day) {
        }

        @Locked(value = "mixed", whenHeld = WhenHeld.SKIP, minHoldDuration = "1.5s", leaseTime = 60)
        public void mixed(Runnable during) {
            during.run();
        }
    }

    @ApplicationScoped
    static class BothWays {
        @Locked(value = "both", whenHeld = WhenHeld.SKIP, minHold = 1500, minHoldDuration = "1.5s")
        public void run() {
        }
    }

    @ApplicationScoped
    static class WaitsOutTheHold {
        @Locked(value = "waits", whenHeld = WhenHeld.SKIP, minHoldDuration = "1500ms", waitTime = 2)
        public void run() {
        }
    }

    @ApplicationScoped
    static class NoDuration {
        @Locked(value = "nothing", leaseDuration = "a minute")
        public void run() {
        }
    }

    @ApplicationScoped
    static class NoTimer {
        @Locked(value = "report:{slot}", whenHeld = WhenHeld.SKIP)
        public void run() {
        }
    }
}
