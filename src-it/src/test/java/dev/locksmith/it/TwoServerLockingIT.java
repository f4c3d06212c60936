package dev.locksmith.it;

import static dev.locksmith.it.SampleClient.failing;
import static dev.locksmith.it.SampleClient.traced;
import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The locking claims, end to end: two Liberty servers running the sample, one Redis, one
 * PostgreSQL database, real processes on loopback.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoServerLockingIT {
    private static final Duration SOON = Duration.ofSeconds(30);
    /** How long a request blocked on the lock is given to (wrongly) get past it. */
    private static final Duration BLOCKED = Duration.ofSeconds(2);

    @RegisterExtension
    static final SampleCluster cluster = SampleCluster.sharingPostgres(2).lockingEnabled(true);

    private final SampleClient first = cluster.server(0);
    private final SampleClient second = cluster.server(1);

    @Test
    @Order(1)
    void bothServersRunTheSampleOnOneSharedDatabase() {
        String sku = SampleCluster.freshSku("shared");

        Reply restocked = first.restock(sku, 7);
        Reply seenByTheOther = second.level(sku);

        assertThat(restocked.status()).isEqualTo(200);
        assertThat(seenByTheOther.status()).isEqualTo(200);
        assertThat(seenByTheOther.integer("available")).isEqualTo(7);
        for (SampleClient server : cluster.clients()) {
            Reply info = server.info();
            assertThat(info.string("instance")).isEqualTo(server.name());
            assertThat(info.string("database")).startsWith("PostgreSQL");
            assertThat(info.string("redisUri")).isEqualTo(cluster.redis().uri());
            assertThat(info.flag("locking")).isTrue();
        }
        assertThat(cluster.postgres().available(sku)).isEqualTo(7);
    }

    @Test
    @Order(2)
    void lockManagerIsInjectableOnBothServers() {
        for (SampleClient server : cluster.clients()) {
            assertThat(server.info().flag("lockManager"))
                    .as("a LockManager bean on %s (the Locksmith CDI extension is active)", server.name())
                    .isTrue();
        }
    }

    @Test
    @Order(3)
    void twoHundredReservationsOnFiftyUnitsAcrossTwoServersNeverOversell() throws InterruptedException {
        String sku = SampleCluster.freshSku("hammer");
        first.restock(sku, 50);

        List<Reply> replies = ReservationHammer.hammer(cluster.clients(), sku, 200, 16);

        List<Reply> reserved = replies.stream().filter(reply -> reply.status() == 201).toList();
        List<Reply> unexpected = replies.stream()
                .filter(reply -> reply.status() != 201 && !"OUT_OF_STOCK".equals(reply.code())).toList();
        assertThat(unexpected).as("answers other than reserved or out of stock").isEmpty();
        assertThat(reserved).hasSize(50);
        // No lost update: each reservation read the level the previous one left, so the 50 of
        // them saw 50 different levels, from 50 down to 1.
        assertThat(reserved.stream().map(reply -> reply.integer("availableBefore")))
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 50).boxed().toList());
        assertThat(reserved.stream().map(reply -> reply.string("instance")).distinct())
                .as("both servers reserved some").containsExactlyInAnyOrder("s1", "s2");
        assertThat(reserved.stream().map(reply -> reply.string("via")).distinct())
                .as("every locked path reserved some").containsExactlyInAnyOrder("cdi", "ejb", "manager");
        // Every unit accounted for, in the database itself.
        assertThat(cluster.postgres().available(sku)).isZero();
        assertThat(cluster.postgres().reservationCount(sku)).isEqualTo(50);
        assertThat(cluster.postgres().reservedUnits(sku)).isEqualTo(50);
        assertThat(cluster.locks().getLock("stock:" + sku).isLocked()).as("lock left behind").isFalse();
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    @Order(4)
    void secondServerGetsTheLockOnlyAfterTheFirstCommitIsVisible(Via via) throws Exception {
        Paused slowCommit = reservationPausedAt("commit", via, Point.COMMITTING, id -> traced(id, Point.COMMITTING));
        assertThat(slowCommit.lock().isLocked()).as("the lock is still held while the first transaction commits").isTrue();

        String b = "b-" + slowCommit.sku();
        CompletableFuture<Reply> next = second.reserveAsync(slowCommit.sku(), 1, via, traced(b, null));
        awaitReached(second, b, Point.RECEIVED, next);
        assertThat(second.reached(b, Point.STARTED, BLOCKED))
                .as("second server got the lock while the first commit was still pending").isFalse();
        Reply committed = slowCommit.resume();
        Reply after = next.get(SOON.toSeconds(), TimeUnit.SECONDS);

        assertThat(committed.status()).as("first: %s", committed).isEqualTo(201);
        assertThat(after.status()).as("second: %s", after).isEqualTo(201);
        assertThat(after.integer("availableBefore")).as("second read what the first committed").isEqualTo(9);
        assertThat(cluster.postgres().available(slowCommit.sku())).isEqualTo(8);
        assertThat(cluster.postgres().reservationCount(slowCommit.sku())).isEqualTo(2);
        assertThat(slowCommit.lock().isLocked()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    @Order(5)
    void rollbackReleasesTheLockAtOnce(Via via) throws Exception {
        Paused doomed = reservationPausedAt("rollback", via, Point.WRITTEN, id -> failing(id, Point.WRITTEN));
        assertThat(doomed.lock().isLocked()).as("held while the doomed request works").isTrue();

        Reply failed = doomed.resume();

        assertThat(failed.status()).as("%s", failed).isEqualTo(500);
        assertThat(failed.code()).isEqualTo("SIMULATED_FAILURE");
        assertThat(doomed.lock().isLocked()).as("released by the rollback, not left to expire").isFalse();
        Reply next = second.reserve(doomed.sku(), 1, via);
        assertThat(next.status()).as("%s", next).isEqualTo(201);
        assertThat(next.integer("availableBefore")).as("the rolled-back write is gone").isEqualTo(10);
        assertThat(cluster.postgres().available(doomed.sku())).isEqualTo(9);
        assertThat(cluster.postgres().reservationCount(doomed.sku())).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(value = Via.class, names = {"CDI", "EJB"})
    @Order(6)
    void lockLostBeforeCommitFailsTheRequestAndWritesNothing(Via via) throws Exception {
        Paused robbed = reservationPausedAt("lost", via, Point.WRITTEN, id -> traced(id, Point.WRITTEN));
        assertThat(robbed.lock().forceUnlock()).as("the lock was held, and is now taken away").isTrue();

        Reply reply = robbed.resume();

        assertThat(reply.status()).as("%s", reply).isEqualTo(409);
        assertThat(reply.code()).isEqualTo("ROLLED_BACK");
        assertThat(reply.string("message")).contains("rolled back");
        assertThat(cluster.postgres().available(robbed.sku())).as("nothing written").isEqualTo(10);
        assertThat(cluster.postgres().reservationCount(robbed.sku())).isZero();
    }

    @Test
    @Order(7)
    void readinessIsDownWhileRedisIsStoppedAndUpWhenItIsBack() {
        for (SampleClient server : cluster.clients()) {
            assertThat(server.readiness().body().getJsonArray("checks"))
                    .as("readiness checks of %s (Locksmith's Redis check)", server.name()).isNotEmpty();
        }
        Readiness.awaitStatus(cluster.clients(), "UP", Duration.ofMinutes(1));
        try {
            cluster.redis().close();

            Readiness.awaitStatus(cluster.clients(), "DOWN", Duration.ofMinutes(1));
        } finally {
            cluster.redis().restart();
        }

        Readiness.awaitStatus(cluster.clients(), "UP", Duration.ofMinutes(2));
    }

    @Test
    @Order(8)
    void killedServerHoldingTheLockFreesItWithinOneLease() throws Exception {
        Paused dying = reservationPausedAt("kill", Via.CDI, Point.WRITTEN, id -> traced(id, Point.WRITTEN));
        assertThat(dying.lock().isLocked()).as("held by the server about to be killed").isTrue();

        cluster.process(0).kill();
        long killedAt = System.nanoTime();
        Reply next = second.reserve(dying.sku(), 1, Via.CDI);
        Duration waited = Duration.ofNanos(System.nanoTime() - killedAt);

        assertThat(next.status()).as("%s", next).isEqualTo(201);
        assertThat(waited).as("the other server waited at most about one lease")
                .isLessThanOrEqualTo(SampleCluster.LEASE.plusSeconds(4));
        assertThat(next.integer("availableBefore")).as("the killed server never committed").isEqualTo(10);
        assertThat(cluster.postgres().available(dying.sku())).isEqualTo(9);
        assertThat(cluster.postgres().reservationCount(dying.sku())).isEqualTo(1);
        assertThat(dying.reply()).failsWithin(SOON);
    }

    /**
     * A reservation of one unit on the first server, of a fresh SKU with 10 units, stopped at a
     * point where it holds the lock.
     *
     * @param server where it runs
     * @param sku   the SKU
     * @param id    its trace id
     * @param lock  the tests' view of its lock
     * @param reply its answer, once resumed
     */
    private record Paused(SampleClient server, String sku, String id, DistributedLock lock,
            CompletableFuture<Reply> reply) {

        Reply resume() throws Exception {
            server.resume(id);
            return reply.get(SOON.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /**
     * @param hooks its {@code X-Test-*} headers, given its trace id; they must pause it at {@code point}
     */
    private Paused reservationPausedAt(String what, Via via, Point point, Function<String, String[]> hooks) {
        String sku = SampleCluster.freshSku(what + "-" + via.parameter());
        String id = "a-" + sku;
        first.restock(sku, 10);
        CompletableFuture<Reply> reply = first.reserveAsync(sku, 1, via, hooks.apply(id));
        awaitReached(first, id, point, reply);
        return new Paused(first, sku, id, cluster.locks().getLock("stock:" + sku), reply);
    }

    /**
     * Waits, on the server's latch, until traced request {@code id} reached {@code point}; fails
     * at once if the request ended without getting there (it was refused, say).
     */
    private static void awaitReached(SampleClient server, String id, Point point, CompletableFuture<Reply> request) {
        long end = System.nanoTime() + SOON.toNanos();
        while (!server.reached(id, point, Duration.ofSeconds(1))) {
            if (request.isDone()) {
                throw new AssertionError("Request " + id + " on " + server.name() + " ended before reaching " + point
                        + ": " + request.join());
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("Request " + id + " on " + server.name() + " did not reach " + point
                        + " within " + SOON);
            }
        }
    }
}
