package dev.locksmith.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.CallOptions;
import dev.locksmith.DistributedLock;
import dev.locksmith.JobInfo;
import dev.locksmith.LastRun;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.RespClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A job that locks one name per slot ({@code interest:<slot>}) and is named apart from its lock
 * ({@link CallOptions#job(String)}) leaves, once its slots are over, only its own two keys: its
 * last run and its short list of recent runs. A name per slot without a job name leaves its
 * fencing counter and its records for a day each.
 */
class PerSlotJobKeysTest {
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final int SLOTS = 100;
    private static final Duration MIN_HOLD = Duration.ofMillis(100);
    /** Every key of the job and its slots; the managers' own descriptions are not the job's. */
    private static final String JOB_KEYS = "locksmith:{interest*";
    private static final Instant FIRST_SLOT = Instant.parse("2026-03-01T10:00:00Z");

    private static CallOptions slotOptions() {
        return CallOptions.waitingUpTo(Duration.ZERO).minHold(MIN_HOLD).skipWhenHeld();
    }

    @Test
    void aJobNamedApartLeavesOnlyItsOwnRecordsAfterItsSlots() throws Exception {
        try (LockManager server = Locksmith.builder().redisUri(redis.uri()).applicationName("bank").build()) {

            for (int slot = 0; slot < SLOTS; slot++) {
                server.callWithLock("interest:" + FIRST_SLOT.plusSeconds(2L * slot), slotOptions().job("interest"),
                        () -> "paid");
            }

            Await.until("only the job's records are left", Duration.ofSeconds(10),
                    () -> redis.keys(JOB_KEYS).size() == 2);
            List<String> left = redis.keys(JOB_KEYS);
            System.out.printf("KEY-COUNT after %d per-slot runs with job = \"interest\": %d keys %s%n", SLOTS,
                    left.size(), left);
            assertThat(left).containsExactlyInAnyOrder("locksmith:{interest}:last-run", "locksmith:{interest}:runs");
            assertThat(ttlMillis("locksmith:{interest}:runs")).as("the records live a day after the last run")
                    .isBetween(Duration.ofHours(23).toMillis(), Duration.ofHours(24).toMillis());
        }
    }

    @Test
    void aNamePerSlotWithoutAJobNameLeavesItsCounterAndRecordsPerSlotForADay() throws Exception {
        try (LockManager server = Locksmith.builder().redisUri(redis.uri()).applicationName("bank").build()) {

            for (int slot = 0; slot < SLOTS; slot++) {
                server.callWithLock("interest:" + FIRST_SLOT.plusSeconds(2L * slot), slotOptions(), () -> "paid");
            }

            Await.until("the minimum holds are over", Duration.ofSeconds(10),
                    () -> redis.keys(JOB_KEYS).stream()
                            .noneMatch(key -> key.endsWith("Z}") || key.contains(":unlock:")));
            List<String> left = redis.keys(JOB_KEYS);
            System.out.printf("KEY-COUNT after %d per-slot runs without a job name: %d keys%n", SLOTS, left.size());
            assertThat(left).hasSize(3 * SLOTS);
        }
    }

    @Test
    void theJobsRecordAnswersForEverySlotWithTheRecentRunsNewestFirst() throws Exception {
        try (LockManager server1 = Locksmith.builder().redisUri(redis.uri()).applicationName("bank").build();
             LockManager server2 = Locksmith.builder().redisUri(redis.uri()).applicationName("bank").build()) {

            for (int slot = 0; slot < 12; slot++) {
                LockManager runner = slot % 2 == 0 ? server1 : server2;
                int number = slot;
                runner.callWithLock("interest:" + FIRST_SLOT.plusSeconds(2L * slot), slotOptions().job("interest"),
                        () -> {
                            if (number == 11) {
                                throw new IllegalStateException("the bank is closed");
                            }
                            return "paid";
                        });
            }
        } catch (IllegalStateException expected) {
            // the last slot's run failed, as it was told to
        }
        try (LockManager operator = Locksmith.builder().redisUri(redis.uri()).build()) {

            JobInfo interest = operator.describeJob("interest");

            System.out.println("DESCRIBE-JOB " + interest);
            assertThat(interest.recentRuns()).hasSize(JobInfo.RECENT_RUNS);
            LastRun last = interest.lastRun().orElseThrow();
            assertThat(last).isEqualTo(interest.recentRuns().get(0));
            assertThat(last.lock()).isEqualTo("interest:" + FIRST_SLOT.plusSeconds(22));
            assertThat(last.outcome()).isEqualTo(LastRun.FAILED);
            assertThat(last.error()).isEqualTo(IllegalStateException.class.getName());
            assertThat(interest.recentRuns().get(1).lock()).isEqualTo("interest:" + FIRST_SLOT.plusSeconds(20));
            assertThat(interest.recentRuns().get(1).outcome()).isEqualTo(LastRun.COMPLETED);
            assertThat(interest.recentRuns()).extracting(LastRun::started).isSortedAccordingTo((a, b) -> b.compareTo(a));
            assertThat(interest.recentRuns()).extracting(LastRun::process).allMatch(process -> process.contains("pid "));
            assertThat(operator.describe("interest").lastRun()).as("describe by the job's name").contains(last);
        }
    }

    @Test
    void aPerSlotNamesTokensStillIncreaseAfterItsShortLivedCounterIsGone() throws Exception {
        try (LockManager server = Locksmith.builder().redisUri(redis.uri()).build()) {
            String name = "interest:" + FIRST_SLOT;
            long[] first = new long[1];
            server.callWithLock(name, slotOptions().job("interest"),
                    () -> first[0] = server.getLock(name).fencingToken());
            long lifetime = ttlMillis("locksmith:{" + name + "}:fence");
            assertThat(lifetime).as("the counter of a per-slot name lives about a second").isBetween(1L, 1_000L);

            // The release latch may stay: it lives a command timeout, and has no part in tokens.
            Await.until("the counter and the kept lock are gone", Duration.ofSeconds(5),
                    () -> redis.keys("locksmith:{" + name + "}*").stream().allMatch(key -> key.contains(":unlock:")));
            DistributedLock late = server.getLock(name);
            assertThat(late.tryLock(0, TimeUnit.MILLISECONDS)).isTrue();
            long second = late.fencingToken();
            late.unlock();

            assertThat(second).as("a token after the counter's loss").isGreaterThan(first[0]);
        }
    }

    private static long ttlMillis(String key) {
        return Long.parseLong(String.valueOf(RespClient.call(redis.node().port(), "PTTL", key)));
    }
}
