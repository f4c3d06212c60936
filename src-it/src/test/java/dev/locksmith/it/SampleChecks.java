package dev.locksmith.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.locksmith.DistributedLock;
import dev.locksmith.JobInfo;
import dev.locksmith.LastRun;
import dev.locksmith.LockHolder;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RespClient;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The locking claims, end to end, on two servers of one runtime running the unchanged sample
 * WAR, one Redis and one PostgreSQL database, all real processes on loopback. Each subclass
 * names the runtime and registers its {@link SampleCluster}. Reservations are stopped and failed
 * from the database ({@link DatabaseGates}), not by code in the WAR. The bank's fenced transfers
 * are checked by the superclass, {@link FencedTransferChecks}, on the same servers.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class SampleChecks extends FencedTransferChecks {
    /**
     * The sample's scheduled job, {@code dev.locksmith.sample.jobs.SlotJob.LOCK}: its name, and the
     * constant part of its per-slot lock's name {@value #SLOT_JOB_TEMPLATE}.
     */
    static final String SLOT_JOB_LOCK = "sample-job";
    /** The template of the scheduled job's lock name, one lock per slot, and its metrics' label. */
    static final String SLOT_JOB_TEMPLATE = "sample-job:{slot}";
    /** The lock of the sample's task on the ManagedScheduledExecutorService, {@code ManagedSlotTask.LOCK}. */
    static final String MANAGED_TASK_LOCK = "sample-task";
    /** The lock of the sample's Concurrency 3.1 schedule, {@code dev.locksmith.sample.concurrency.ScheduledSlotJob.LOCK}. */
    static final String SCHEDULE_JOB_LOCK = "sample-schedule";
    /**
     * How much longer than the longest of the later runs' the first run's lock wait may be: room for a
     * first call's class loading and compilation on a loaded machine (4 to 92 ms measured on Quarkus),
     * far below the connection it used to pay for (seconds).
     */
    private static final long FIRST_WAIT_MARGIN_MICROS = 500_000;
    /** When each cluster's Redis was stopped and when it answered again ({@code @Order(7)}), for the first-wait report. */
    private static final Map<SampleCluster, List<Instant>> REDIS_OUTAGES = new ConcurrentHashMap<>();

    /**
     * A reservation of one unit on the first server, stopped inside its locked method: the test
     * holds the SKU's stock row, so the reservation waits at its update with the lock held.
     */
    private Stopped stoppedInsideItsLock(String sku, Via via) {
        DatabaseGates.Gate row = DatabaseGates.holdRow(database(), sku);
        CompletableFuture<Reply> reply = first().reserveAsync(sku, 1, via);
        DatabaseGates.awaitWaiting(database(), 1, SOON);
        return new Stopped(row, reply);
    }

    /**
     * @param row   the test's hold of the stock row; closing it lets the reservation go on
     * @param reply the reservation's answer, once it went on
     */
    private record Stopped(DatabaseGates.Gate row, CompletableFuture<Reply> reply) implements AutoCloseable {
        @Override
        public void close() {
            row.close();
        }
    }

    private DistributedLock lockOf(String sku) {
        return cluster().locks().getLock("stock:" + sku);
    }

    @Test
    @Order(1)
    void bothServersRunTheSampleOnOneDatabaseAndSayWhatLocksmithTurnedOn() {
        String sku = SampleCluster.freshSku("shared");

        Reply restocked = first().restock(sku, 7);
        Reply seenByTheOther = second().level(sku);

        assertThat(restocked.status()).as("%s", restocked).isEqualTo(200);
        assertThat(seenByTheOther.integer("available")).isEqualTo(7);
        for (SampleClient server : cluster().clients()) {
            Reply info = server.info();
            assertThat(info.string("instance")).isEqualTo(server.name());
            assertThat(info.string("database")).startsWith("PostgreSQL");
            assertThat(info.flag("lockManager")).as("a LockManager bean on %s", server.name()).isTrue();
        }
        for (int i = 0; i < 2; i++) {
            SampleServer server = cluster().process(i);
            List<String> startup = server.log().stream().filter(line -> line.contains("@Locked method(s) checked"))
                    .toList();
            assertThat(startup).as("Locksmith's startup line on %s, once", server.name()).hasSize(1);
            SampleRuntime runtime = cluster().runtime();
            assertThat(startup.get(0)).contains("MicroProfile Health " + (runtime.hasHealth() ? "on" : "off"),
                    "Jakarta Concurrency " + (runtime.hasConcurrency() ? "on" : "off"), "Jakarta Transactions on");
        }
    }

    @Test
    @Order(2)
    void twoHundredReservationsOnFiftyUnitsAcrossTwoServersNeverOversell() throws InterruptedException {
        String sku = SampleCluster.freshSku("hammer");
        first().restock(sku, 50);

        List<Reply> replies = ReservationHammer.hammer(cluster().clients(), cluster().runtime().lockedPaths(), sku,
                200, 16);

        List<Reply> reserved = replies.stream().filter(reply -> reply.status() == 201).toList();
        List<Reply> unexpected = replies.stream()
                .filter(reply -> reply.status() != 201 && !"OUT_OF_STOCK".equals(reply.code())).toList();
        assertThat(unexpected).as("answers other than reserved or out of stock").isEmpty();
        assertThat(reserved).hasSize(50);
        // No lost update: each reservation read the level the previous one left.
        assertThat(reserved.stream().map(reply -> reply.integer("availableBefore")))
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 50).boxed().toList());
        assertThat(reserved.stream().map(reply -> reply.string("instance")).distinct())
                .as("both servers reserved some").containsExactlyInAnyOrder("s1", "s2");
        assertThat(reserved.stream().map(reply -> reply.string("via")).distinct())
                .as("every locked path reserved some").containsExactlyInAnyOrderElementsOf(
                        cluster().runtime().lockedPaths().stream().map(Via::parameter).toList());
        assertThat(database().available(sku)).isZero();
        assertThat(database().reservationCount(sku)).isEqualTo(50);
        assertThat(database().reservedUnits(sku)).isEqualTo(50);
        assertThat(lockOf(sku).isLocked()).as("lock left behind").isFalse();
        cluster().noSystemExceptionLogged();
        String watchdog = cluster().runtime().hasConcurrency()
                ? "Locksmith's watchdog runs on the container's ManagedScheduledExecutorService"
                : "Locksmith's watchdog runs on Locksmith's own threads (Jakarta Concurrency is not on the class path)";
        for (int i = 0; i < 2; i++) {
            assertThat(cluster().process(i).log()).as("where %s's watchdog runs", cluster().process(i).name())
                    .anyMatch(line -> line.contains(watchdog));
        }
    }

    /**
     * Where the server has Jakarta Concurrency 3.1, reservations run on virtual threads of the
     * sample's {@code @ManagedExecutorDefinition(virtual = true)}, through the {@code @Locked} CDI bean
     * and {@code callWithLock}, hold the lock across both servers as on platform threads: none
     * oversold, none lost. Elsewhere the same WAR has deployed and that path says it has no virtual threads.
     */
    @Test
    @Order(2)
    void reservationsOnVirtualThreadsOfAManagedExecutorNeverOversell() throws InterruptedException {
        assumeTrue(cluster().runtime().hasSampleConcurrencyClasses(),
                () -> "no Jakarta Concurrency classes in the sample on " + cluster().runtime());
        String sku = SampleCluster.freshSku("virtual");
        first().restock(sku, 50);
        if (!cluster().runtime().hasConcurrency31()) {
            for (SampleClient server : cluster().clients()) {
                Reply refused = server.reserveOnVirtualThread(sku, 1, Via.CDI);
                assertThat(refused.status()).as("%s", refused).isEqualTo(501);
                assertThat(refused.code()).isEqualTo("NO_VIRTUAL_THREADS");
            }
            assertThat(database().available(sku)).isEqualTo(50);
            return;
        }
        List<Via> paths = List.of(Via.CDI, Via.MANAGER);

        List<Reply> replies = ReservationHammer.hammer(cluster().clients(), paths, sku, 200, 16,
                (server, reserved, via) -> server.reserveOnVirtualThread(reserved, 1, via));

        List<Reply> reserved = replies.stream().filter(reply -> reply.status() == 201).toList();
        List<Reply> unexpected = replies.stream()
                .filter(reply -> reply.status() != 201 && !"OUT_OF_STOCK".equals(reply.code())).toList();
        assertThat(unexpected).as("answers other than reserved or out of stock").isEmpty();
        assertThat(reserved).hasSize(50);
        assertThat(reserved.stream().map(reply -> reply.integer("availableBefore")))
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 50).boxed().toList());
        assertThat(reserved).as("each held its lock on a virtual thread").allMatch(reply -> reply.flag("virtualThread"));
        assertThat(reserved.stream().map(reply -> reply.string("instance")).distinct())
                .as("both servers reserved some").containsExactlyInAnyOrder("s1", "s2");
        assertThat(reserved.stream().map(reply -> reply.string("via")).distinct())
                .as("both locked paths reserved some").containsExactlyInAnyOrder("cdi", "manager");
        assertThat(database().available(sku)).isZero();
        assertThat(database().reservationCount(sku)).isEqualTo(50);
        assertThat(lockOf(sku).isLocked()).as("lock left behind").isFalse();
        cluster().noSystemExceptionLogged();
        cluster().runtime().locksmithThreadFactory().ifPresent(factory -> {
            for (int i = 0; i < 2; i++) {
                assertThat(cluster().process(i).log()).as("where %s's Redis I/O threads come from", cluster().process(i).name())
                        .anyMatch(line -> line.contains("Redis I/O threads come from the container's ManagedThreadFactory at "
                                + factory));
            }
        });
    }

    /**
     * A commit made slow on purpose keeps the lock: the other server, asking without waiting,
     * gets {@code LockTimeoutException} through the application's own mapper, whatever kind of
     * bean holds the lock; once the commit is done, it reads what was committed.
     */
    @ParameterizedTest
    @EnumSource(Via.class)
    @Order(3)
    void theLockIsReleasedOnlyAfterASlowCommitAndTimeoutsReachTheUsersMapper(Via via) throws Exception {
        assumeTrue(cluster().runtime().lockedPaths().contains(via), () -> "no " + via + " path on " + cluster().runtime());
        String sku = SampleCluster.freshSku(DatabaseGates.SLOW_COMMIT + via.parameter());
        first().restock(sku, 10);
        CompletableFuture<Reply> committing;
        try (DatabaseGates.Gate commit = DatabaseGates.holdCommit(database(), sku)) {
            committing = first().reserveAsync(sku, 1, via);
            DatabaseGates.awaitWaiting(database(), 1, SOON);
            assertThat(lockOf(sku).isLocked()).as("held while the first transaction commits").isTrue();

            Reply refused = second().tryReserve(sku, 1, via);

            assertThat(refused.status()).as("%s", refused).isEqualTo(503);
            assertThat(refused.code()).isEqualTo("LOCK_TIMEOUT");
            assertThat(refused.mappedBy()).as("the exception reached ExceptionMapper<LockTimeoutException> unwrapped")
                    .isEqualTo("LockTimeoutResponses");
        }
        Reply committed = committing.get(SOON.toSeconds(), TimeUnit.SECONDS);
        Reply after = second().reserve(sku, 1, via);

        assertThat(committed.status()).as("first: %s", committed).isEqualTo(201);
        assertThat(after.status()).as("second: %s", after).isEqualTo(201);
        assertThat(after.integer("availableBefore")).as("second read what the first committed").isEqualTo(9);
        assertThat(database().available(sku)).isEqualTo(8);
        assertThat(lockOf(sku).isLocked()).isFalse();
        cluster().noSystemExceptionLogged();
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    @Order(4)
    void aRollbackReleasesTheLockAtOnce(Via via) throws Exception {
        assumeTrue(cluster().runtime().lockedPaths().contains(via), () -> "no " + via + " path on " + cluster().runtime());
        String sku = SampleCluster.freshSku(DatabaseGates.DOOMED + via.parameter());
        first().restock(sku, 10);
        CompletableFuture<Reply> doomed;
        try (Stopped stopped = stoppedInsideItsLock(sku, via)) {
            doomed = stopped.reply();
            assertThat(lockOf(sku).isLocked()).as("held while the doomed reservation works").isTrue();
        }
        Reply failed = doomed.get(SOON.toSeconds(), TimeUnit.SECONDS);

        assertThat(failed.status()).as("%s", failed).isEqualTo(500);
        assertThat(lockOf(sku).isLocked()).as("released by the rollback, not left to expire").isFalse();
        assertThat(database().available(sku)).isEqualTo(10);
        assertThat(database().reservationCount(sku)).isZero();
    }

    @ParameterizedTest
    @EnumSource(value = Via.class, names = {"CDI", "EJB", "SINGLETON"})
    @Order(5)
    void aLockLostBeforeCommitRollsTheTransactionBack(Via via) throws Exception {
        assumeTrue(cluster().runtime().lockedPaths().contains(via), () -> "no " + via + " path on " + cluster().runtime());
        String sku = SampleCluster.freshSku("lost-" + via.parameter());
        first().restock(sku, 10);
        CompletableFuture<Reply> robbed;
        try (Stopped stopped = stoppedInsideItsLock(sku, via)) {
            robbed = stopped.reply();
            assertThat(lockOf(sku).forceUnlock()).as("the lock was held, and is now taken away").isTrue();
        }
        Reply reply = robbed.get(SOON.toSeconds(), TimeUnit.SECONDS);

        assertThat(reply.status()).as("%s", reply).isEqualTo(409);
        assertThat(reply.code()).isEqualTo("ROLLED_BACK");
        assertThat(reply.string("message")).contains("lost");
        assertThat(database().available(sku)).as("nothing written").isEqualTo(10);
        assertThat(database().reservationCount(sku)).isZero();
    }

    @Test
    @Order(6)
    void theWatchdogKeepsALongHoldersLockPastSeveralLeases() throws Exception {
        String sku = SampleCluster.freshSku("long");
        first().restock(sku, 10);
        Duration threeLeases = SampleCluster.LEASE.multipliedBy(3).plus(SampleCluster.LEASE.dividedBy(2));
        CompletableFuture<Reply> longHolder;
        try (Stopped stopped = stoppedInsideItsLock(sku, Via.CDI)) {
            longHolder = stopped.reply();
            LockWatch.heldThroughout(lockOf(sku), threeLeases, SampleCluster.LEASE.dividedBy(6));
            Reply meanwhile = second().tryReserve(sku, 1, Via.CDI);
            assertThat(meanwhile.code()).as("%s", meanwhile).isEqualTo("LOCK_TIMEOUT");
        }
        Reply done = longHolder.get(SOON.toSeconds(), TimeUnit.SECONDS);
        assertThat(done.status()).as("%s", done).isEqualTo(201);
        assertThat(database().available(sku)).isEqualTo(9);
    }

    @Test
    @Order(7)
    void readinessIsDownWhileRedisIsStoppedAndUpWhenItIsBack() {
        if (!cluster().runtime().hasHealth()) {
            for (SampleClient server : cluster().clients()) {
                Reply readiness = server.readiness();
                assertThat(Readiness.locksmithCheck(readiness)).as("no readiness check without MicroProfile Health: %s",
                        readiness).isEmpty();
            }
            return;
        }
        Readiness.awaitStatus(cluster().clients(), "UP", Duration.ofMinutes(1));
        for (SampleClient server : cluster().clients()) {
            Reply readiness = server.readiness();
            JsonObject check = Readiness.locksmithCheck(readiness).orElseThrow(() -> new AssertionError(
                    "no " + Readiness.LOCKSMITH_CHECK + " check in the readiness of " + server.name() + ": " + readiness));
            assertThat(check.getJsonObject("data").keySet()).as("readiness data of %s", server.name())
                    .contains("redis", "locksHeld", "leasesLostSinceStart");
        }
        Instant stopped = Instant.now();
        try {
            cluster().redis().close();
            Readiness.awaitStatus(cluster().clients(), "DOWN", Duration.ofMinutes(1));
        } finally {
            cluster().redis().restart();
            REDIS_OUTAGES.put(cluster(), List.of(stopped, Instant.now()));
        }
        Readiness.awaitStatus(cluster().clients(), "UP", Duration.ofMinutes(2));
    }

    @Test
    @Order(8)
    void aKilledHoldersLockIsFreeWithinOneLease() throws Exception {
        String sku = SampleCluster.freshSku("kill");
        first().restock(sku, 10);
        Duration waited;
        CompletableFuture<Reply> dying;
        try (Stopped stopped = stoppedInsideItsLock(sku, Via.CDI)) {
            dying = stopped.reply();
            assertThat(lockOf(sku).isLocked()).as("held by the server about to be killed").isTrue();

            cluster().process(0).kill();
            long killedAt = System.nanoTime();
            waited = LockWatch.awaitFree(lockOf(sku), SampleCluster.LEASE.plusSeconds(10));
            assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).as("freed within about one lease")
                    .isLessThanOrEqualTo(SampleCluster.LEASE.plusSeconds(2));
        }
        Reply next = second().reserve(sku, 1, Via.CDI);
        assertThat(next.status()).as("%s", next).isEqualTo(201);
        assertThat(next.integer("availableBefore")).as("the killed server never committed").isEqualTo(10);
        assertThat(dying).failsWithin(SOON);
        System.out.println(cluster().runtime() + ": a killed holder's lock was free " + waited.toMillis()
                + " ms after kill -9 (lease " + SampleCluster.LEASE.toMillis() + " ms)");
    }

    @Test
    @Order(9)
    void describeNamesTheOtherServersHolder() throws Exception {
        String sku = SampleCluster.freshSku("described");
        first().restock(sku, 10);
        CompletableFuture<Reply> holding;
        try (Stopped stopped = stoppedInsideItsLock(sku, Via.CDI)) {
            holding = stopped.reply();

            Reply described = second().describeLock("stock:" + sku);

            assertThat(described.status()).as("%s", described).isEqualTo(200);
            JsonObject holder = described.body().getJsonArray("holders").getJsonObject(0);
            assertThat(holder.getString("process")).as("the first server's JVM")
                    .startsWith("pid " + cluster().process(0).pid() + " on ");
            assertThat(holder.getString("mode")).isEqualTo("exclusive");
            assertThat(holder.getString("thread")).isNotBlank();
            assertThat(holder.getJsonNumber("fencingToken").longValue()).isPositive();
        }
        assertThat(holding.get(SOON.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(201);
        assertThat(second().describeLock("stock:" + sku).body().getJsonArray("holders")).isEmpty();
    }

    @Test
    @Order(10)
    void contendedReservationsShowInTheExportedMetrics() throws Exception {
        if (!cluster().runtime().exportsMetrics()) {
            return;
        }
        String sku = SampleCluster.freshSku("metered");
        first().restock(sku, 100);
        ExportedMetrics before = ExportedMetrics.settled(cluster(), SOON);
        List<CompletableFuture<Reply>> reservations = IntStream.range(0, 20)
                .mapToObj(i -> cluster().server(i % 2).reserveAsync(sku, 1, Via.CDI)).toList();
        for (CompletableFuture<Reply> reservation : reservations) {
            assertThat(reservation.get(SOON.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(201);
        }
        ExportedMetrics grown = ExportedMetrics.settled(cluster(), SOON).minus(before);

        System.out.printf("METRICS %s: 20 contended reservations added %s%n", cluster().runtime(), grown);
        assertThat(grown).as("acquisitions of stock:{sku}, and waits that acquired it, over both servers")
                .isEqualTo(new ExportedMetrics(20, 20));
    }

    /**
     * The sample's scheduled job fires every 2 s on both servers, the second server's timer 300 ms
     * late ({@link SampleCluster#TIMER_SKEW}), with a job much shorter than the slot: each slot runs
     * exactly once (rows in the shared database), the late server skips quietly (the metrics count
     * it where the runtime exports them), the last run is readable, and when the server running a
     * job dies mid-run, the other server runs a slot within a lease. Where the server has Jakarta
     * Concurrency, the sample's task on the ManagedScheduledExecutorService, locked by hand with
     * {@code callWithLock} and {@code CallOptions}, runs each of its slots once too, in the same 30 s;
     * where it has Concurrency 3.1, so does the job on {@code @Asynchronous(runAt = @Schedule(...))}
     * ({@code ScheduledSlotJob}), whose last run is readable too. Elsewhere that job never runs.
     * The job's lock is named per slot ({@code sample-job:{slot}}) and the job apart from it, with a
     * minimum hold in its own unit ({@code minHoldDuration = "1.5s"}) beside a lease in seconds:
     * describing the job by its name answers its last run and recent runs whatever slot ran them,
     * and after the 15 slots Redis keeps the job's two records and the keys of the last slots only,
     * none of them for longer than the lease.
     */
    @Test
    @Order(11)
    void theScheduledJobRunsEachSlotOnceAndMovesToTheOtherServerWhenItsRunnerDies() throws Exception {
        Duration observed = Duration.ofSeconds(30);
        Instant from = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(2);
        Instant to = from.plus(observed);
        Thread.sleep(Duration.between(Instant.now(), to.plusSeconds(2)).toMillis());

        assertEachSlotRanOnce(SLOT_JOB_LOCK, SLOT_JOB_TEMPLATE, from, to);
        assertTheFirstRunAfterDeploymentWaitedNoLonger(from, to);
        if (cluster().runtime().runsManagedTask()) {
            assertEachSlotRanOnce(MANAGED_TASK_LOCK, MANAGED_TASK_LOCK, from, to);
        }
        if (cluster().runtime().hasConcurrency31()) {
            assertEachSlotRanOnce(SCHEDULE_JOB_LOCK, SCHEDULE_JOB_LOCK, from, to);
            assertLastRunCompleted(SCHEDULE_JOB_LOCK);
        } else {
            assertThat(database().jobRuns(SCHEDULE_JOB_LOCK, from, to))
                    .as("no Concurrency 3.1 on %s: the WAR deployed, its schedule never started", cluster().runtime())
                    .isEmpty();
        }
        JsonObject lastRun = assertLastRunCompleted(SLOT_JOB_LOCK);
        assertThat(lastRun.getString("lock")).as("the slot's own lock, %s", lastRun).startsWith(SLOT_JOB_LOCK + ":");
        assertJobRecordsAnswerForEverySlot();
        assertOnlyTheLastSlotsKeysAreLeft();

        Instant killed;
        String survivor;
        try (DatabaseGates.Gate gate = DatabaseGates.holdCommit(database(), DatabaseGates.JOB_GATE)) {
            DatabaseGates.awaitWaiting(database(), 1, SOON);
            String holder = runningSlotsHolder();
            int runner = cluster().process(0).pid() == pidIn(holder) ? 0 : 1;
            assertThat(cluster().process(runner).pid()).as("the runner %s", holder).isEqualTo(pidIn(holder));
            killed = Instant.now();
            cluster().process(runner).kill();
            survivor = cluster().process(1 - runner).name();
        } // the gate opens: the survivor's runs must not wait at it
        Duration movedAfter = Await.until("a slot runs on " + survivor, SampleCluster.LEASE.plusSeconds(10),
                () -> database().jobRuns(SLOT_JOB_LOCK, killed.truncatedTo(ChronoUnit.SECONDS), killed.plusSeconds(60))
                        .values().stream().anyMatch(servers -> servers.contains(survivor)));

        System.out.printf("SCHEDULED-JOB %s: the runner died mid-run; %s ran a slot %d ms later%n",
                cluster().runtime(), survivor, movedAfter.toMillis());
        assertThat(movedAfter).as("at most the lease, plus a slot to fire in")
                .isLessThanOrEqualTo(SampleCluster.LEASE.plusSeconds(2).plusMillis(500));
    }

    private JsonObject assertLastRunCompleted(String job) {
        Reply described = first().describeLock(job);
        JsonObject lastRun = described.body().getJsonObject("lastRun");
        assertThat(lastRun).as("%s", described).isNotNull();
        assertThat(lastRun.getString("outcome")).isEqualTo("completed");
        assertThat(lastRun.getString("process")).contains("pid ");
        return lastRun;
    }

    /**
     * The manager connects while the application starts, so the job's first callback after
     * deployment, which used to connect on the timer's thread (4 to 11 s on the servers), waits for
     * its lock no longer than the callbacks of {@code [from, to)} on the same server, whether they
     * ran the slot or skipped it ({@code /api/jobs/{job}/lock-waits}); asserted where
     * {@link SampleRuntime#assertsFirstLockWait()}, printed everywhere. Also printed: each server's
     * first run that acquired the lock, with Redis's outage of {@code @Order(7)} beside it. A server
     * that skips every slot while the other runs them may run its first slot only when Redis comes
     * back, its try having waited in the client's queue while Redis was down, so that run says
     * nothing about deployment. And how long after its slot the first run started, against the runs
     * of {@code [from, to)}, each without its server's own timer skew ({@link SampleCluster#timerSkew});
     * that delay also holds what else a first run pays for (the first transaction, the first
     * statement), and on an EJB timer the slot is worked out from the next timeout, which a callback
     * more than a slot late moves.
     */
    private void assertTheFirstRunAfterDeploymentWaitedNoLonger(Instant from, Instant to) {
        List<SampleDatabase.JobRun> runs = database().jobRunsInOrder(SLOT_JOB_LOCK);
        SampleDatabase.JobRun first = runs.get(0);
        List<Long> window = runs.stream().filter(run -> !run.slot().isBefore(from) && run.slot().isBefore(to))
                .map(this::lateWithoutSkew).sorted().toList();
        System.out.printf("FIRST-SLOT %s: the first run after deployment (%s, slot %s) started %d ms after its slot"
                        + " (its server's skew left out); the %d runs of the window: median %d ms, max %d ms; the first"
                        + " runs: %s%n", cluster().runtime(), first.instance(), first.slot(), lateWithoutSkew(first),
                window.size(), window.isEmpty() ? -1 : window.get(window.size() / 2),
                window.isEmpty() ? -1 : window.get(window.size() - 1), runs.subList(0, Math.min(6, runs.size())));

        for (SampleClient server : cluster().clients()) {
            List<SampleClient.LockWait> callbacks = server.lockWaits(SLOT_JOB_LOCK);
            List<Long> inWindow = callbacks.stream().filter(callback -> !callback.at().isBefore(from)
                    && callback.at().isBefore(to)).map(SampleClient.LockWait::micros).sorted().toList();
            if (callbacks.isEmpty() || inWindow.isEmpty() || !callbacks.get(0).at().isBefore(from)) {
                continue; // this server started during the window, after a kill of an earlier check
            }
            SampleClient.LockWait firstCallback = callbacks.get(0);
            long median = inWindow.get(inWindow.size() / 2);
            long max = inWindow.get(inWindow.size() - 1);
            System.out.printf("FIRST-CALLBACK %s, %s: the first callback after deployment (%s) waited %d us for its lock;"
                            + " the %d callbacks of the window: median %d us, max %d us; the first run that acquired: %s;"
                            + " Redis stopped and back: %s%n", cluster().runtime(), server.name(), firstCallback,
                    firstCallback.micros(), inWindow.size(), median, max,
                    callbacks.stream().filter(SampleClient.LockWait::ran).findFirst().map(Object::toString).orElse("none"),
                    REDIS_OUTAGES.getOrDefault(cluster(), List.of()));
            if (cluster().runtime().assertsFirstLockWait()) {
                assertThat(firstCallback.micros()).as("the first callback's lock wait on %s, in us, against the"
                                + " window's (median %d us, max %d us)", server.name(), median, max)
                        .isLessThanOrEqualTo(max + FIRST_WAIT_MARGIN_MICROS);
            }
        }
    }

    private long lateWithoutSkew(SampleDatabase.JobRun run) {
        return run.late().minus(SampleCluster.timerSkew(run.instance())).toMillis();
    }

    /**
     * {@code describeJob} by the job's name: its latest run is the head of its recent runs, each
     * named by the slot's own lock and slot, from either server.
     */
    private void assertJobRecordsAnswerForEverySlot() {
        JobInfo job = cluster().locks().describeJob(SLOT_JOB_LOCK);
        System.out.printf("SCHEDULED-JOB %s: describeJob(\"%s\") = %s%n", cluster().runtime(), SLOT_JOB_LOCK, job);
        assertThat(job.recentRuns()).as("%s", job).hasSize(JobInfo.RECENT_RUNS);
        assertThat(job.lastRun()).contains(job.recentRuns().get(0));
        for (LastRun run : job.recentRuns()) {
            assertThat(run.slot()).as("the slot of %s", run).isNotNull();
            assertThat(run.lock()).isEqualTo(SLOT_JOB_LOCK + ":" + run.slot());
            assertThat(run.slot().getEpochSecond() % 2).as("a slot of */2 seconds: %s", run).isZero();
        }
        assertThat(job.recentRuns()).extracting(LastRun::slot).doesNotHaveDuplicates();
    }

    /**
     * Per-slot names leave nothing behind beyond the slots that still need their keys: the lock of
     * the last slot or two (its minimum hold), their fencing counters (as long as the minimum hold)
     * and release latches (the command timeout); and the job's two records.
     */
    private void assertOnlyTheLastSlotsKeysAreLeft() {
        String prefix = cluster().keyPrefix();
        @SuppressWarnings("unchecked")
        List<String> slotKeys = (List<String>) RespClient.call(cluster().redis().port(), "KEYS",
                prefix + "{" + SLOT_JOB_LOCK + ":*");
        @SuppressWarnings("unchecked")
        List<String> jobKeys = (List<String>) RespClient.call(cluster().redis().port(), "KEYS",
                prefix + "{" + SLOT_JOB_LOCK + "}*");
        System.out.printf("SCHEDULED-JOB %s: keys left after the 15 observed slots: %d of the job %s, %d of its"
                + " slots %s%n", cluster().runtime(), jobKeys.size(), jobKeys, slotKeys.size(), slotKeys);
        assertThat(jobKeys).containsExactlyInAnyOrder(prefix + "{" + SLOT_JOB_LOCK + "}:last-run",
                prefix + "{" + SLOT_JOB_LOCK + "}:runs");
        assertThat(slotKeys.stream().map(key -> key.substring(0, key.indexOf('}') + 1)).distinct().count())
                .as("slots with keys left, of the 15 observed: %s", slotKeys).isLessThanOrEqualTo(5);
        for (String key : slotKeys) {
            long ttl = Long.parseLong(String.valueOf(RespClient.call(cluster().redis().port(), "PTTL", key)));
            assertThat(ttl).as("time to live of %s", key).isLessThanOrEqualTo(Duration.ofSeconds(60).toMillis());
        }
    }

    /**
     * @return the process holding the lock of the slot whose run is held up at the database gate
     */
    private String runningSlotsHolder() {
        String[] holder = new String[1];
        Await.until("the running slot's holder", SOON, () -> {
            Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            for (int back = 0; back <= 12; back++) {
                Instant slot = now.minusSeconds(back);
                if (slot.getEpochSecond() % 2 != 0) {
                    continue;
                }
                for (LockHolder each : cluster().locks().describe(SLOT_JOB_LOCK + ":" + slot).holders()) {
                    if (each.mode().equals("exclusive")) {
                        holder[0] = each.process();
                        return true;
                    }
                }
            }
            return false;
        });
        return holder[0];
    }

    /**
     * @param job      the job's name, its {@code job} in {@code job_run}
     * @param template the label of its lock in metrics: the lock name's template
     */
    private void assertEachSlotRanOnce(String job, String template, Instant from, Instant to) {
        Duration observed = Duration.between(from, to);
        SortedMap<String, List<String>> runs = database().jobRuns(job, from, to);
        Map<String, List<String>> twice = runs.entrySet().stream().filter(run -> run.getValue().size() > 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        Map<String, Long> byServer = runs.values().stream().flatMap(List::stream)
                .collect(Collectors.groupingBy(server -> server, TreeMap::new, Collectors.counting()));
        long skipped = -1;
        if (cluster().runtime().exportsMetrics()) {
            Await.until("a skipped slot of " + job + " in the exported metrics", SOON,
                    () -> ExportedMetrics.skipped(cluster(), template) > 0);
            skipped = ExportedMetrics.skipped(cluster(), template);
        }
        System.out.printf("SCHEDULED-JOB %s, %s: %d slots observed in %s, run twice: %d, runs by server: %s,"
                + " skipped (exported metrics, -1 = not exported): %d%n", cluster().runtime(), job, runs.size(),
                observed, twice.size(), byServer, skipped);
        assertThat(twice).as("slots of %s run on both servers", job).isEmpty();
        assertThat(runs.size()).as("slots of %s run in %s, of %d", job, observed, observed.toSeconds() / 2)
                .isGreaterThanOrEqualTo((int) (observed.toSeconds() / 2) - 2);
    }

    private static long pidIn(String process) {
        Matcher pid = Pattern.compile("pid (\\d+)").matcher(String.valueOf(process));
        return pid.find() ? Long.parseLong(pid.group(1)) : -1;
    }
}
