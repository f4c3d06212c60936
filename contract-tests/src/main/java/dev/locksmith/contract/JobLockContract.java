package dev.locksmith.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.CallOptions;
import dev.locksmith.DistributedLock;
import dev.locksmith.JobInfo;
import dev.locksmith.LastRun;
import dev.locksmith.LockHolder;
import dev.locksmith.LockInfo;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.testing.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The job lock on the Redis under test: {@link LockManager#callWithLock(String, CallOptions,
 * java.util.concurrent.Callable)} keeps its lock for a minimum hold after the job returns, skips a
 * job whose lock is held elsewhere, fails one that does not skip, ends a fixed lease while the job
 * still runs (and says so), and records each run where any process can read it, under the job's
 * own name when it is named apart from its lock. Besides the fencing counters, the jobs' records
 * ({@code {job}:last-run}, {@code {job}:runs}) stay after a test, as documented.
 *
 * <pre>{@code
 * class OurRedisJobLockContractTest extends JobLockContract {
 *     @Override
 *     protected RedisUnderTest redis() {
 *         return new StagingRedis();
 *     }
 * }
 * }</pre>
 */
public abstract class JobLockContract extends StoreContract {
    private static final Duration MIN_HOLD = Duration.ofMillis(800);

    @Override
    protected boolean mayStay(String key) {
        return super.mayStay(key) || key.endsWith(":last-run") || key.endsWith(":runs");
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
    void aJobThatReturnsEarlyKeepsItsLockForTheMinimumHold() throws Exception {
        LockManager server1 = manager();
        LockManager server2 = manager();
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
        assertThat(canLock(server2, "report")).as("another process, during the minimum hold").isFalse();
        assertThat(canLock(server1, "report")).as("the same process, during the minimum hold").isFalse();

        Await.until("the lock is free", Duration.ofSeconds(5), () -> canLock(server2, "report"));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("not before the minimum hold")
                .isGreaterThanOrEqualTo(MIN_HOLD);
    }

    @Test
    void aJobLongerThanItsMinimumHoldReleasesItsLockWhenItReturns() throws Exception {
        LockManager server1 = manager();
        LockManager server2 = manager();

        server1.callWithLock("long-job", CallOptions.waitingUpTo(Duration.ZERO).minHold(Duration.ofMillis(100)), () -> {
            Thread.sleep(300); // the job's own work, longer than its minimum hold
            return null;
        });

        assertThat(server2.describe("long-job").isHeld()).isFalse();
        assertThat(canLock(server2, "long-job")).isTrue();
    }

    @Test
    void aJobWhoseLockIsHeldElsewhereIsSkippedQuietly() throws Exception {
        LockManager server1 = manager();
        DistributedLock running = manager().getLock("nightly");
        running.lock();
        AtomicInteger runs = new AtomicInteger();

        Object result = server1.callWithLock("nightly", CallOptions.waitingUpTo(Duration.ZERO).skipWhenHeld(),
                runs::incrementAndGet);

        running.unlock();
        assertThat(result).as("a skipped call returns null").isNull();
        assertThat(runs).as("the job did not run").hasValue(0);
        assertThat(server1.describe("nightly").lastRun()).as("a skip is no run").isEmpty();
    }

    @Test
    void withoutSkipAHeldLockFailsTheCall() throws Exception {
        LockManager server1 = manager();
        DistributedLock running = manager().getLock("strict");
        running.lock();
        try {
            assertThatThrownBy(() -> server1.callWithLock("strict", CallOptions.waitingUpTo(Duration.ofMillis(200)),
                    () -> "ran")).isInstanceOf(LockTimeoutException.class).hasMessageContaining("strict");
        } finally {
            running.unlock();
        }
    }

    @Test
    void aFixedLeaseEndsTheHoldWhileTheJobStillRunsAndTheCallerHearsIt() throws Exception {
        LockManager server1 = manager();
        LockManager server2 = manager();
        CountDownLatch takenOver = new CountDownLatch(1);

        Future<Object> job = inOtherThread(() -> server1.callWithLock("capped",
                CallOptions.waitingUpTo(Duration.ZERO).leaseTime(Duration.ofMillis(400)), () -> {
                    assertThat(takenOver.await(10, TimeUnit.SECONDS)).as("another process took the lock").isTrue();
                    return "late";
                }));
        Await.until("the job holds its lock", Duration.ofSeconds(5), () -> server2.describe("capped").isHeld());
        DistributedLock next = server2.getLock("capped");
        boolean acquired = next.tryLock(5, TimeUnit.SECONDS);
        takenOver.countDown();

        assertThat(acquired).as("free once the job's lease ran out, though the job still ran").isTrue();
        assertThatThrownBy(() -> job.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(LockLostException.class);
        assertThat(next.isHeldByCurrentThread()).as("the job's late release leaves the new holder alone").isTrue();
        next.unlock();
    }

    @Test
    void theLastRunSaysWhenWhereForHowLongAndHowItEnded() throws Exception {
        LockManager server1 = manager();
        LockManager reader = manager();
        Instant before = Instant.now().minusMillis(5);
        CallOptions job = CallOptions.waitingUpTo(Duration.ZERO).skipWhenHeld();

        server1.callWithLock("billing", job, () -> {
            Thread.sleep(120); // the job's own work
            return null;
        });
        LastRun completed = reader.describe("billing").lastRun().orElseThrow();
        Throwable thrown = LockContract.catchThrowable(() -> server1.callWithLock("billing", job, () -> {
            throw new IllegalStateException("no ledger");
        }));
        LastRun failed = reader.describe("billing").lastRun().orElseThrow();

        assertThat(completed.started()).isAfter(before).isBefore(Instant.now());
        assertThat(completed.took()).isBetween(Duration.ofMillis(120), Duration.ofSeconds(5));
        assertThat(completed.outcome()).isEqualTo(LastRun.COMPLETED);
        assertThat(completed.error()).isNull();
        assertThat(completed.process()).contains("pid " + ProcessHandle.current().pid());
        assertThat(completed.thread()).isEqualTo(Thread.currentThread().getName());
        assertThat(completed.fencingToken()).isPositive();
        assertThat(thrown).as("the job's own exception reaches the caller").hasMessage("no ledger");
        assertThat(failed.outcome()).isEqualTo(LastRun.FAILED);
        assertThat(failed.error()).isEqualTo(IllegalStateException.class.getName());
        assertThat(failed.fencingToken()).isGreaterThan(completed.fencingToken());
        assertThat(reader.describeJob("billing").recentRuns()).as("newest first").containsExactly(failed, completed);
        assertThat(reader.describe("plain-lock").lastRun()).as("a lock no job ran under").isEmpty();
    }

    @Test
    void aJobNamedApartIsRecordedUnderItsNameWhateverLockRanIt() throws Exception {
        LockManager server1 = manager();
        LockManager server2 = manager();
        CallOptions interest = CallOptions.waitingUpTo(Duration.ZERO).minHold(Duration.ofMillis(100)).skipWhenHeld()
                .job("interest");

        server1.callWithLock("interest:slot-1", interest, () -> "paid");
        server2.callWithLock("interest:slot-2", interest, () -> "paid");

        JobInfo job = server1.describeJob("interest");
        assertThat(job.recentRuns()).extracting(LastRun::lock).containsExactly("interest:slot-2", "interest:slot-1");
        assertThat(job.lastRun()).contains(job.recentRuns().get(0));
        assertThat(server1.describe("interest").lastRun()).as("describe of the job's name shows the same")
                .isEqualTo(job.lastRun());
    }
}
