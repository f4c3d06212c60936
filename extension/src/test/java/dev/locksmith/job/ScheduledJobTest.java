package dev.locksmith.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.CallOptions;
import dev.locksmith.DistributedLock;
import dev.locksmith.LastRun;
import dev.locksmith.LockHolder;
import dev.locksmith.LockInfo;
import dev.locksmith.LockManager;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.CountedMetrics;
import dev.locksmith.testing.LogCapture;
import dev.locksmith.testing.RedisServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scheduled job under {@code callWithLock} with {@link CallOptions}: it keeps its lock for a
 * minimum hold after it returns, skips quietly when another process holds the lock, and leaves a
 * record of its last run that any process can read.
 */
class ScheduledJobTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final Duration MIN_HOLD = Duration.ofMillis(1_200);

    private static DefaultLockManager manager() {
        return (DefaultLockManager) Locksmith.builder().redisUri(redis.uri()).applicationName("jobs").build();
    }

    private static boolean canLock(LockManager locks, String name) {
        DistributedLock lock = locks.getLock(name);
        boolean acquired = lock.tryLock();
        if (acquired) {
            lock.unlock();
        }
        return acquired;
    }

    @Test
    void aJobThatReturnsEarlyKeepsItsLockForTheMinimumHoldWithoutAWatchdog() throws Exception {
        try (DefaultLockManager server1 = manager(); LockManager server2 = manager()) {
            long started = System.nanoTime();

            String result = server1.callWithLock("report", CallOptions.waitingUpTo(Duration.ZERO).minHold(MIN_HOLD),
                    () -> "done");

            assertThat(result).isEqualTo("done");
            LockInfo info = server2.describe("report");
            assertThat(info.isHeld()).as("kept after the job returned").isTrue();
            LockHolder kept = info.holders().get(0);
            assertThat(kept.mode()).isEqualTo("kept");
            assertThat(kept.holdCount()).isZero();
            assertThat(kept.leaseLeft()).as("what is left of the minimum hold").isLessThanOrEqualTo(MIN_HOLD);
            assertThat(server1.statistics().renewed()).as("no watchdog keeps it").isZero();
            assertThat(canLock(server2, "report")).as("another process, during the minimum hold").isFalse();
            assertThat(canLock(server1, "report")).as("the same process, during the minimum hold").isFalse();

            Await.until("the lock is free", Duration.ofSeconds(5), () -> canLock(server2, "report"));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("not before the minimum hold")
                    .isGreaterThanOrEqualTo(MIN_HOLD);
        }
    }

    @Test
    void aJobLongerThanItsMinimumHoldReleasesItsLockWhenItReturns() throws Exception {
        try (LockManager server1 = manager(); LockManager server2 = manager()) {
            server1.callWithLock("long-job", CallOptions.waitingUpTo(Duration.ZERO).minHold(Duration.ofMillis(100)),
                    () -> {
                        Thread.sleep(300);
                        return null;
                    });

            assertThat(server2.describe("long-job").isHeld()).isFalse();
            assertThat(canLock(server2, "long-job")).isTrue();
        }
    }

    @Test
    void aJobWhoseLockIsHeldElsewhereIsSkippedQuietlyAndCountedAndRecorded(@TempDir Path dir) throws Exception {
        try (CountedMetrics metrics = new CountedMetrics();
             LockManager server1 = Locksmith.builder().redisUri(redis.uri()).openTelemetry(metrics.openTelemetry())
                     .build();
             LockManager server2 = manager();
             LogCapture logs = LogCapture.start();
             Recording recording = new Recording()) {
            recording.enable("dev.locksmith.LockSkipped");
            recording.start();
            DistributedLock running = server2.getLock("nightly");
            running.lock();
            AtomicInteger runs = new AtomicInteger();

            Object result = server1.callWithLock("nightly", CallOptions.waitingUpTo(Duration.ZERO).skipWhenHeld(),
                    runs::incrementAndGet);

            recording.stop();
            running.unlock();
            assertThat(result).as("a skipped call returns null").isNull();
            assertThat(runs).as("the job did not run").hasValue(0);
            assertThat(metrics.recorded("locksmith.lock.wait.duration", "locksmith.lock.wait.outcome", "skipped"))
                    .isEqualTo(1);
            assertThat(metrics.total("locksmith.lock.timeouts")).as("a skip is no timeout").isZero();
            assertThat(logs.messages()).anyMatch(line -> line.startsWith("dev.locksmith.skipped FINE: Skipped a call:"
                    + " lock 'nightly' is held elsewhere"));
            Path file = dir.resolve("skips.jfr");
            recording.dump(file);
            List<RecordedEvent> skips = RecordingFile.readAllEvents(file).stream()
                    .filter(event -> event.getEventType().getName().equals("dev.locksmith.LockSkipped")).toList();
            assertThat(skips).hasSize(1);
            assertThat(skips.get(0).getString("lockName")).isEqualTo("nightly");
        }
    }

    @Test
    void withoutSkipAHeldLockStillFailsTheCall() throws Exception {
        try (LockManager server1 = manager(); LockManager server2 = manager()) {
            DistributedLock running = server2.getLock("strict");
            running.lock();
            try {
                assertThatThrownBy(() -> server1.callWithLock("strict", CallOptions.waitingUpTo(Duration.ZERO),
                        () -> "ran")).isInstanceOf(LockTimeoutException.class);
            } finally {
                running.unlock();
            }
        }
    }

    @Test
    void theLastRunSaysWhenWhereForHowLongAndHowItEnded() throws Exception {
        try (LockManager server1 = manager(); LockManager reader = manager()) {
            Instant before = Instant.now().minusMillis(5);
            CallOptions job = CallOptions.waitingUpTo(Duration.ZERO).skipWhenHeld();

            server1.callWithLock("billing", job, () -> {
                Thread.sleep(120);
                return null;
            });
            LastRun completed = reader.describe("billing").lastRun().orElseThrow();
            Throwable thrown = null;
            try {
                server1.callWithLock("billing", job, () -> {
                    throw new IllegalStateException("no ledger");
                });
            } catch (IllegalStateException e) {
                thrown = e;
            }
            LastRun failed = reader.describe("billing").lastRun().orElseThrow();

            assertThat(completed.started()).isAfter(before).isBefore(Instant.now());
            assertThat(completed.took()).isBetween(Duration.ofMillis(120), Duration.ofSeconds(5));
            assertThat(completed.outcome()).isEqualTo(LastRun.COMPLETED);
            assertThat(completed.error()).isNull();
            assertThat(completed.process()).contains("pid " + ProcessHandle.current().pid(), "application jobs");
            assertThat(completed.thread()).isEqualTo(Thread.currentThread().getName());
            assertThat(completed.fencingToken()).isPositive();
            assertThat(thrown).as("the job's own exception reaches the caller").hasMessage("no ledger");
            assertThat(failed.outcome()).isEqualTo(LastRun.FAILED);
            assertThat(failed.error()).isEqualTo(IllegalStateException.class.getName());
            assertThat(failed.fencingToken()).isGreaterThan(completed.fencingToken());
            assertThat(Long.parseLong(redis.node().command("PTTL", "locksmith:{billing}:last-run"))).as("lives a day")
                    .isBetween(86_000_000L, 86_400_000L);
            assertThat(reader.describe("plain-lock").lastRun()).as("a lock no job ran under").isEmpty();
        }
    }

    @Test
    void aMinimumHoldLongerThanTheLeaseIsRefusedWithTheFix() {
        assertThatThrownBy(() -> CallOptions.waitingUpTo(Duration.ZERO).leaseTime(Duration.ofSeconds(5))
                .minHold(Duration.ofSeconds(10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("minHold PT10S is longer than leaseTime PT5S")
                .hasMessageContaining("Shorten minHold or lengthen leaseTime");
    }
}
