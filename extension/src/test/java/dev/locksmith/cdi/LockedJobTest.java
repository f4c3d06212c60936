package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LastRun;
import dev.locksmith.LockManager;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.Locked;
import dev.locksmith.Locksmith;
import dev.locksmith.WhenHeld;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.RedisConfigExtension;
import dev.locksmith.testing.RedisServerExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code @Locked} on a scheduled job: a timer fires on every server, and the job runs once per
 * slot. A server whose timer fires while (or shortly after) another ran the slot skips it without
 * an exception; the lock is kept for the minimum hold; every run is recorded.
 */
@EnableWeld
class LockedJobTest {
    @RegisterExtension
    @Order(1)
    static final RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    @Order(2)
    static final RedisConfigExtension config = new RedisConfigExtension(redis);

    @WeldSetup
    WeldInitiator weld = WeldInitiator.from(CdiContainers.weld(Jobs.class)).build();

    @Inject
    Jobs jobs;
    @Inject
    LockManager locks;

    private LockManager otherServer;

    @BeforeEach
    void startTheOtherServer() {
        otherServer = Locksmith.builder().redisUri(redis.uri()).build();
    }

    @AfterEach
    void stopTheOtherServer() {
        otherServer.close();
    }

    @Test
    void aTimerFiringAgainWithinTheMinimumHoldIsSkippedAndAfterItRunsAgain() {
        // Before the call: the minimum hold counts from the acquisition, which comes after this.
        Instant startedBefore = Instant.now();
        jobs.report();

        jobs.report(); // the other server's timer, a few hundred ms late
        boolean keptForOthers = otherServer.getLock("report").isLocked();
        Await.until("the minimum hold passed", Duration.ofSeconds(5), () -> !otherServer.getLock("report").isLocked());
        jobs.report(); // the next slot

        assertThat(jobs.reports()).as("the first and the next slot ran; the late timer skipped").isEqualTo(2);
        assertThat(keptForOthers).isTrue();
        assertThat(Duration.between(startedBefore, Instant.now())).isGreaterThanOrEqualTo(Duration.ofMillis(700));
        assertThat(locks.describe("report").lastRun()).get().extracting(LastRun::outcome).isEqualTo(LastRun.COMPLETED);
    }

    @Test
    void aJobWhoseLockIsHeldElsewhereReturnsEmptyOrNullAndThrowsNothing() {
        DistributedLock running = otherServer.getLock("summary");
        running.lock();
        try {
            Optional<String> summary = jobs.summary();
            String text = jobs.text();

            assertThat(summary).as("an Optional method gets empty").isEmpty();
            assertThat(text).as("any other method gets null").isNull();
            assertThat(jobs.summaries()).as("neither ran").isZero();
        } finally {
            running.unlock();
        }
        assertThat(jobs.summary()).contains("ran");
    }

    @Test
    void aPlainLockedMethodStillFailsWhenTheLockIsHeld() {
        DistributedLock running = otherServer.getLock("strict");
        running.lock();
        try {
            org.assertj.core.api.Assertions.assertThatThrownBy(jobs::strict).isInstanceOf(LockTimeoutException.class);
        } finally {
            running.unlock();
        }
    }

    @Test
    void aSlotInTheNameIsTheSameInstantOnEveryServerWhateverItsTimeZone() {
        Instant slot = Instant.parse("2026-03-01T10:00:02Z");

        jobs.slot(Date.from(slot));

        assertThat(locks.describe("slot:2026-03-01T10:00:02Z").lastRun()).as("the lock named after the slot")
                .isPresent();
    }

    @ApplicationScoped
    static class Jobs {
        final AtomicInteger reports = new AtomicInteger();
        final AtomicInteger summaries = new AtomicInteger();

        // Read through these: a client proxy's own fields are not the bean's.
        public int reports() {
            return reports.get();
        }

        public int summaries() {
            return summaries.get();
        }

        @Locked(value = "report", whenHeld = WhenHeld.SKIP, minHold = 700, leaseTime = 10_000,
                unit = ChronoUnit.MILLIS)
        public void report() {
            reports.incrementAndGet();
        }

        @Locked(value = "summary", whenHeld = WhenHeld.SKIP)
        public Optional<String> summary() {
            summaries.incrementAndGet();
            return Optional.of("ran");
        }

        @Locked(value = "summary", whenHeld = WhenHeld.SKIP)
        public String text() {
            summaries.incrementAndGet();
            return "ran";
        }

        @Locked(value = "strict", waitTime = 0)
        public void strict() {
        }

        @Locked(value = "slot:{timeout}", whenHeld = WhenHeld.SKIP, minHold = 1)
        public void slot(Date timeout) {
        }
    }
}
