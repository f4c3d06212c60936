package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.JavaProcess;
import dev.locksmith.testing.LockRing;
import dev.locksmith.testing.LogCapture;
import dev.locksmith.testing.RedisFaults;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.RespClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A release of the reentrant lock, or of the write side of the read/write lock, wakes one waiting
 * process, not all of them: it offers the lock to the first process of the lock's ring whose own
 * channel still has a listener, and only that process hears of it. These tests make each way in
 * which the process offered to can fail to take the lock happen on cue, and prove that the lock
 * still reaches the next process within a stated bound, never a lease:
 * <ul>
 *   <li>it was killed ({@code kill -9}) before the release: Redis counts no listener on its
 *       channel, and the release skips it at once;</li>
 *   <li>it is frozen ({@code SIGSTOP}) when the offer reaches it: the releaser passes the offer on
 *       after one command timeout, and the frozen process, once resumed, still gets the lock;</li>
 *   <li>its waiting thread gave up (timed out, or was interrupted) while the process stayed in the
 *       ring: the process passes the offer on at once, in well under a command timeout;</li>
 *   <li>Redis refuses its attempt (a permission taken away): its waiter's wait fails with that
 *       refusal, and the process passes the offer on at once;</li>
 *   <li>its pub/sub connection was dropped: the release skips it, and its resubscription makes it
 *       ask Redis again, so it gets the lock after all.</li>
 * </ul>
 * And under a steady load, every process gets its share of the holds and no two hold at once.
 *
 * <p>Each {@link LockManager} stands for one application server; H holds the lock, C waits first
 * (so it is first in the ring), D waits second. Leases are 30 s, so a hand-off that waited for a
 * lease would fail every bound here. Every test waits on what Redis shows (the ring, the
 * listeners of a channel) or on what a process prints, never on a guessed sleep, and ends with no
 * process and no lock state left.
 */
class WakeOneTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration SHORT_COMMAND_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration LONG_COMMAND_TIMEOUT = Duration.ofSeconds(3);
    /** What a hand-off may take beyond the bound of its path: round trips on a loaded 2-core machine. */
    private static final Duration MARGIN = Duration.ofMillis(750);

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final ExecutorService holderOfD = Executors.newSingleThreadExecutor(named("D"));
    private final ExecutorService holderOfC = Executors.newSingleThreadExecutor(named("C"));

    @AfterEach
    void stopThreads() {
        holderOfD.shutdownNow();
        holderOfC.shutdownNow();
    }

    /**
     * C is killed with SIGKILL while first in the ring; its pub/sub connection closes with it, so
     * the release's PUBLISH to C counts no listener and offers the lock to D straight away. Bound:
     * one command timeout (1 s) plus a margin.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"reentrant", "write"})
    void aKilledProcessFirstInTheRingIsSkipped(String kind) throws Exception {
        String name = "killed-" + kind;
        try (LockManager h = manager(SHORT_COMMAND_TIMEOUT);
             LockManager d = manager(SHORT_COMMAND_TIMEOUT);
             JavaProcess c = waiter(name, kind, SHORT_COMMAND_TIMEOUT, Duration.ofSeconds(60), "C")) {
            DistributedLock held = LockWorker.lockOfKind(h, kind, name);
            held.lock();
            c.awaitLine("WAITING", Duration.ofSeconds(30));
            String cId = awaitRing(kind, name, 1).get(0);
            CompletableFuture<Long> dAcquiredAt = acquireIn(holderOfD, LockWorker.lockOfKind(d, kind, name));
            assertThat(awaitRing(kind, name, 2)).as("C first, then D").startsWith(cId);

            c.kill();
            Await.until("Redis sees that C no longer listens", Duration.ofSeconds(10),
                    () -> redis.listeners(address(kind, name, cId)) == 0);
            long releasedAt = System.nanoTime();
            held.unlock();

            long waited = TimeUnit.NANOSECONDS.toMillis(dAcquiredAt.get(20, TimeUnit.SECONDS) - releasedAt);

            System.out.printf("%s: %s = %d ms%n", name, "waited", waited);
            assertThat(waited).as("ms D waited after H's release, C killed (bound: one command timeout + margin)")
                    .isLessThanOrEqualTo(SHORT_COMMAND_TIMEOUT.plus(MARGIN).toMillis());
            assertThat(ring(kind, name)).as("C dropped from the ring").doesNotContain(cId);
            unlockIn(holderOfD, LockWorker.lockOfKind(d, kind, name));
            if (kind.equals("write")) {
                // Readers yield to waiting writers; C, known dead since the release skipped it, waits no more.
                DistributedLock reader = h.getReadWriteLock(name).readLock();
                assertThat(reader.tryLock()).as("a reader gets in once D released; hash: %s",
                        RespClient.call(redis.node().port(), "HGETALL", "locksmith:{" + name + "}:rw")).isTrue();
                reader.unlock();
            }
        }
        assertNothingLeft(SHORT_COMMAND_TIMEOUT.toMillis());
    }

    /**
     * C is frozen with SIGSTOP while first in the ring: its connection stays open, so the release
     * offers the lock to C, which cannot answer. H, the releaser, passes the offer on to D after
     * one command timeout (1 s); bound: that plus a margin. Resumed with SIGCONT, C (still
     * waiting) hears the stale offer, asks Redis, rejoins the ring and gets the lock once D
     * releases.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"reentrant", "write"})
    void aFrozenProcessFirstInTheRingIsPassedOverAfterOneCommandTimeout(String kind) throws Exception {
        String name = "frozen-" + kind;
        try (LockManager h = manager(SHORT_COMMAND_TIMEOUT);
             LockManager d = manager(SHORT_COMMAND_TIMEOUT);
             JavaProcess c = waiter(name, kind, SHORT_COMMAND_TIMEOUT, Duration.ofSeconds(90), "C")) {
            OfferToFrozen offer;
            try {
                offer = offerToFrozen(c, h, d, kind, name);
                long releasedAt = offer.releasedAt();
                CompletableFuture<Long> dAcquiredAt = offer.dAcquiredAt();

                long waited = TimeUnit.NANOSECONDS.toMillis(dAcquiredAt.get(20, TimeUnit.SECONDS) - releasedAt);
                long scripts = scriptCalls();
                System.out.printf("%s: scripts run while the offer to frozen C stood: %d%n", name, scripts);
                // H's release, H's pass-offer, D's acquisition, and a few more at most: D waits for its
                // offer, it does not ask again and again while C's offer stands.
                assertThat(scripts).as("scripts run from H's release to D's acquisition").isLessThanOrEqualTo(8);

                System.out.printf("%s: %s = %d ms%n", name, "waited", waited);
                assertThat(waited).as("ms D waited after H's release, C frozen (bound: H's command timeout + margin)")
                        .isGreaterThanOrEqualTo(SHORT_COMMAND_TIMEOUT.toMillis() - 100)
                        .isLessThanOrEqualTo(SHORT_COMMAND_TIMEOUT.plus(MARGIN).toMillis());
            } finally {
                c.signal("CONT");
            }

            awaitRingContaining(kind, name, offer.cId());
            assertThat(c.output()).as("C still waits").doesNotContain("GAVE-UP").noneMatch(l -> l.startsWith("ACQUIRED"));
            long dReleasedAt = System.nanoTime();
            unlockIn(holderOfD, LockWorker.lockOfKind(d, kind, name));
            c.awaitLine("ACQUIRED", Duration.ofSeconds(10));
            assertThat(Duration.ofNanos(System.nanoTime() - dReleasedAt)).as("C's wait after D's release")
                    .isLessThan(SHORT_COMMAND_TIMEOUT.plus(MARGIN));
            redis.node().command("RPUSH", "go:C", "go");
            c.awaitLine("DONE", Duration.ofSeconds(30));
            assertThat(c.awaitExit(Duration.ofSeconds(30))).isZero();
        }
        assertNothingLeft(SHORT_COMMAND_TIMEOUT.toMillis());
    }

    /**
     * H's release offers the lock to frozen C, and H then closes in an orderly way, before its
     * watch would pass the offer on: {@code close()} withdraws the offer itself before it returns
     * (passed on, it would stand with nobody to watch it), so D, woken, gets the lock at once, not
     * when the offer's reservation (a lease) runs out.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"reentrant", "write"})
    void anOfferStandingWhenItsMakerClosesIsWithdrawnByTheClose(String kind) throws Exception {
        String name = "closing-maker-" + kind;
        try (LockManager d = manager(LONG_COMMAND_TIMEOUT);
             JavaProcess c = waiter(name, kind, LONG_COMMAND_TIMEOUT, Duration.ofSeconds(90), "C")) {
            LockManager h = manager(LONG_COMMAND_TIMEOUT);
            OfferToFrozen offer = offerToFrozen(c, h, d, kind, name);
            try {
                h.close();
                long closedAt = System.nanoTime();
                assertThat(offeredTo(kind, name)).as("offered to when close() returned").isNotEqualTo(offer.cId());

                long waited = TimeUnit.NANOSECONDS.toMillis(offer.dAcquiredAt().get(20, TimeUnit.SECONDS) - closedAt);
                assertThat(waited).as("ms D waited after H closed, C frozen").isLessThan(MARGIN.toMillis());
            } finally {
                c.signal("CONT");
            }
            finishWithC(c, d, kind, name);
        }
        assertNothingLeft(LONG_COMMAND_TIMEOUT.toMillis());
    }

    /**
     * H's watch passes on the offer that frozen C does not take, and Redis answers that pass-on
     * with BUSY: the watch tries again a command timeout later instead of leaving the offer to lapse
     * with its lease, so D gets the lock within two command timeouts of the release.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"reentrant", "write"})
    void aPassOnThatMeetsBusyIsTriedAgain(String kind) throws Exception {
        String name = "busy-pass-on-" + kind;
        try (LogCapture logs = LogCapture.start();
             LockManager h = manager(SHORT_COMMAND_TIMEOUT);
             LockManager d = manager(SHORT_COMMAND_TIMEOUT);
             JavaProcess c = waiter(name, kind, SHORT_COMMAND_TIMEOUT, Duration.ofSeconds(90), "C")) {
            try {
                OfferToFrozen offer = offerToFrozen(c, h, d, kind, name);
                long releasedAt = offer.releasedAt();
                CompletableFuture<Long> dAcquiredAt = offer.dAcquiredAt();
                try (AutoCloseable busy = RedisFaults.busy(redis.node())) {
                    Await.until("H's pass-on met BUSY", Duration.ofSeconds(10), () -> logs.messages().stream()
                            .anyMatch(line -> line.contains("Could not pass on the untaken offer") && line.contains("BUSY")));
                }

                long waited = TimeUnit.NANOSECONDS.toMillis(dAcquiredAt.get(20, TimeUnit.SECONDS) - releasedAt);
                assertThat(waited).as("ms D waited after H's release, C frozen and the first pass-on refused")
                        .isLessThan(SHORT_COMMAND_TIMEOUT.multipliedBy(2).plus(MARGIN).toMillis());
            } finally {
                c.signal("CONT");
            }
            finishWithC(c, d, kind, name);
        }
        assertNothingLeft(SHORT_COMMAND_TIMEOUT.toMillis());
    }

    /**
     * H holds the lock, C waits first in the ring and then freezes, D waits second; H releases,
     * which offers the lock to frozen C. C must be resumed (SIGCONT) in a {@code finally}.
     */
    private OfferToFrozen offerToFrozen(JavaProcess c, LockManager h, LockManager d, String kind, String name) {
        DistributedLock held = LockWorker.lockOfKind(h, kind, name);
        held.lock();
        c.awaitLine("WAITING", Duration.ofSeconds(30));
        String cId = awaitRing(kind, name, 1).get(0);
        CompletableFuture<Long> dAcquiredAt = acquireIn(holderOfD, LockWorker.lockOfKind(d, kind, name));
        assertThat(awaitRing(kind, name, 2)).startsWith(cId);
        c.signal("STOP");
        redis.node().command("CONFIG", "RESETSTAT");
        long releasedAt = System.nanoTime();
        held.unlock();
        assertThat(offeredTo(kind, name)).as("the lock stands offered to frozen C; lock %s, listening %s",
                lockState(kind, name), RespClient.call(redis.node().port(), "PUBSUB", "CHANNELS", "*")).isEqualTo(cId);
        return new OfferToFrozen(cId, releasedAt, dAcquiredAt);
    }

    /** The manager id of frozen C, when H released (scripts counted from then on), and when D acquires. */
    private record OfferToFrozen(String cId, long releasedAt, CompletableFuture<Long> dAcquiredAt) {
    }

    /**
     * D releases the lock it took, and resumed C, still waiting, takes it and ends.
     */
    private void finishWithC(JavaProcess c, LockManager d, String kind, String name) throws Exception {
        unlockIn(holderOfD, LockWorker.lockOfKind(d, kind, name));
        c.awaitLine("ACQUIRED", Duration.ofSeconds(20));
        redis.node().command("RPUSH", "go:C", "go");
        c.awaitLine("DONE", Duration.ofSeconds(30));
        assertThat(c.awaitExit(Duration.ofSeconds(30))).isZero();
    }

    /**
     * C's only waiting thread timed out while C stayed in the ring (its subscription lingers for
     * {@code ContentionRegistry.LINGER_MILLIS}, 2 s). The offer reaches C, which passes it on at
     * once: D gets the lock in less than half a command timeout (3 s), so not by the releaser's
     * watch.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"reentrant", "write"})
    void aProcessWhoseThreadTimedOutPassesTheOfferOnAtOnce(String kind) throws Exception {
        declinedOffer(kind, "timed-out-" + kind, lock -> {
            try {
                assertThat(lock.tryLock(1_500, TimeUnit.MILLISECONDS)).as("C's thread times out").isFalse();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            return null;
        }, null);
    }

    /**
     * The same with C's waiting thread interrupted in {@code lockInterruptibly()}.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"reentrant", "write"})
    void aProcessWhoseThreadWasInterruptedPassesTheOfferOnAtOnce(String kind) throws Exception {
        Thread[] waiting = new Thread[1];
        declinedOffer(kind, "interrupted-" + kind, lock -> {
            waiting[0] = Thread.currentThread();
            assertThatThrownBy(lock::lockInterruptibly).isInstanceOf(InterruptedException.class);
            return null;
        }, () -> waiting[0].interrupt());
    }

    private void declinedOffer(String kind, String name, Function<DistributedLock, Void> cWaits, Runnable giveUp)
            throws Exception {
        try (LockManager h = manager(LONG_COMMAND_TIMEOUT);
             LockManager c = manager(LONG_COMMAND_TIMEOUT);
             LockManager d = manager(LONG_COMMAND_TIMEOUT)) {
            DistributedLock held = LockWorker.lockOfKind(h, kind, name);
            held.lock();
            CompletableFuture<Void> cGaveUp = CompletableFuture.supplyAsync(
                    () -> cWaits.apply(LockWorker.lockOfKind(c, kind, name)), holderOfC);
            String cId = awaitRing(kind, name, 1).get(0);
            CompletableFuture<Long> dAcquiredAt = acquireIn(holderOfD, LockWorker.lockOfKind(d, kind, name));
            assertThat(awaitRing(kind, name, 2)).startsWith(cId);
            if (giveUp != null) {
                giveUp.run();
            }
            cGaveUp.get(20, TimeUnit.SECONDS);
            long gaveUpAt = System.nanoTime();
            assertThat(redis.listeners(address(kind, name, cId))).as("C still listens (its subscription lingers)").isOne();
            assertThat(ring(kind, name)).as("C is still first in the ring").startsWith(cId);

            long releasedAt = System.nanoTime();
            held.unlock();
            assertThat(Duration.ofNanos(releasedAt - gaveUpAt)).as("released while C lingers in the ring")
                    .isLessThan(Duration.ofMillis(1_500));

            long waited = TimeUnit.NANOSECONDS.toMillis(dAcquiredAt.get(20, TimeUnit.SECONDS) - releasedAt);

            System.out.printf("%s: %s = %d ms%n", name, "waited", waited);
            assertThat(waited).as("ms D waited after H's release, C declining (bound: half a command timeout)")
                    .isLessThan(LONG_COMMAND_TIMEOUT.toMillis() / 2);
            unlockIn(holderOfD, LockWorker.lockOfKind(d, kind, name));
        }
        assertNothingLeft(LONG_COMMAND_TIMEOUT.toMillis());
    }

    /**
     * C's Redis user loses the permission on the lock's fencing counter while C is first in the
     * ring: an answer no retry can change. The offer reaches C, whose pub/sub thread sends the
     * waiter's attempt at once and gets {@code NOPERM}; the waiter then asks itself, gets the same
     * refusal, and its wait fails naming it. C, with nothing left waiting, passes the offer on at
     * once: D gets the lock in less than half a command timeout (3 s), so not by the releaser's
     * watch. The write lock only: the reentrant lock is granted, and its grant is taken by a
     * command that needs no fencing counter (the grant carries the token); a grant whose
     * confirmation Redis refuses is {@code GrantHandOffTest}'s.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"write"})
    void aProcessWhoseAttemptRedisRefusesFailsItsWaitAndPassesTheOfferOn(String kind) throws Exception {
        String name = "refused-" + kind;
        String user = "refused-c-" + kind;
        try (LockManager h = manager(LONG_COMMAND_TIMEOUT);
             LockManager c = managerAs(user, LONG_COMMAND_TIMEOUT);
             LockManager d = manager(LONG_COMMAND_TIMEOUT)) {
            DistributedLock held = LockWorker.lockOfKind(h, kind, name);
            held.lock();
            CompletableFuture<Long> cAcquiredAt = acquireIn(holderOfC, LockWorker.lockOfKind(c, kind, name));
            String cId = awaitRing(kind, name, 1).get(0);
            CompletableFuture<Long> dAcquiredAt = acquireIn(holderOfD, LockWorker.lockOfKind(d, kind, name));
            assertThat(awaitRing(kind, name, 2)).startsWith(cId);

            // Every key of the lock but its fencing counter, which every acquisition declares.
            String base = "locksmith:{" + name + "}";
            redis.node().command("ACL", "SETUSER", user, "resetkeys", "~" + base, "~" + base + ":r*",
                    "~" + base + ":unlock:*", "~locksmith:manager:*");
            long releasedAt = System.nanoTime();
            held.unlock();

            assertThatThrownBy(() -> cAcquiredAt.get(20, TimeUnit.SECONDS)).as("C's wait fails on the refusal")
                    .hasStackTraceContaining("NOPERM");
            long waited = TimeUnit.NANOSECONDS.toMillis(dAcquiredAt.get(20, TimeUnit.SECONDS) - releasedAt);
            System.out.printf("%s: %s = %d ms%n", name, "waited", waited);
            assertThat(waited).as("ms D waited after H's release, C refused (bound: half a command timeout)")
                    .isLessThan(LONG_COMMAND_TIMEOUT.toMillis() / 2);
            unlockIn(holderOfD, LockWorker.lockOfKind(d, kind, name));
        } finally {
            redis.node().command("ACL", "DELUSER", user);
        }
        assertNothingLeft(LONG_COMMAND_TIMEOUT.toMillis());
    }

    /**
     * C's pub/sub connection is killed ({@code CLIENT KILL ID}) while C is first in the ring, and
     * its reconnection held back (C's Redis user is switched off: established connections stay,
     * new ones are refused) until after H's release: the release finds no listener on C's channel
     * and offers the lock to D at once (bound: less than one command timeout, 1 s). Once C may
     * connect again, Lettuce resubscribes, which counts as a wake-up: C asks Redis, rejoins the
     * ring behind D's hold, and gets the lock when D releases (bound: one command timeout + margin).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"reentrant", "write"})
    void aProcessWhosePubSubConnectionDroppedIsSkippedAndComesBack(String kind) throws Exception {
        String name = "dropped-" + kind;
        String user = "wake-c-" + kind;
        try (LockManager h = manager(SHORT_COMMAND_TIMEOUT);
             LockManager c = managerAs(user, SHORT_COMMAND_TIMEOUT);
             LockManager d = manager(SHORT_COMMAND_TIMEOUT)) {
            DistributedLock held = LockWorker.lockOfKind(h, kind, name);
            held.lock();
            CompletableFuture<Long> cAcquiredAt = acquireIn(holderOfC, LockWorker.lockOfKind(c, kind, name));
            String cId = awaitRing(kind, name, 1).get(0);
            CompletableFuture<Long> dAcquiredAt = acquireIn(holderOfD, LockWorker.lockOfKind(d, kind, name));
            assertThat(awaitRing(kind, name, 2)).startsWith(cId);

            String pubSubOfC = pubSubClientIdOf(user);
            redis.node().command("ACL", "SETUSER", user, "off");
            redis.node().command("CLIENT", "KILL", "ID", pubSubOfC);
            Await.until("Redis sees that C no longer listens", Duration.ofSeconds(10),
                    () -> redis.listeners(address(kind, name, cId)) == 0);

            long releasedAt = System.nanoTime();
            held.unlock();
            long waited = TimeUnit.NANOSECONDS.toMillis(dAcquiredAt.get(20, TimeUnit.SECONDS) - releasedAt);
            System.out.printf("%s: %s = %d ms%n", name, "waited", waited);
            assertThat(waited).as("ms D waited after H's release, C's pub/sub connection down (bound: < 1 command"
                    + " timeout)").isLessThan(SHORT_COMMAND_TIMEOUT.toMillis());
            assertThat(cAcquiredAt).isNotDone();

            redis.node().command("ACL", "SETUSER", user, "on");
            Await.until("C resubscribed", Duration.ofSeconds(10), () -> redis.listeners(address(kind, name, cId)) == 1);
            awaitRingContaining(kind, name, cId);
            long dReleasedAt = System.nanoTime();
            unlockIn(holderOfD, LockWorker.lockOfKind(d, kind, name));
            long cWaited = TimeUnit.NANOSECONDS.toMillis(cAcquiredAt.get(20, TimeUnit.SECONDS) - dReleasedAt);
            System.out.printf("%s: %s = %d ms%n", name, "cWaited", cWaited);
            assertThat(cWaited).as("ms C waited after D's release (bound: one command timeout + margin)")
                    .isLessThanOrEqualTo(SHORT_COMMAND_TIMEOUT.plus(MARGIN).toMillis());
            unlockIn(holderOfC, LockWorker.lockOfKind(c, kind, name));
        } finally {
            redis.node().command("ACL", "DELUSER", user);
        }
        assertNothingLeft(SHORT_COMMAND_TIMEOUT.toMillis());
    }

    /**
     * Eight managers in two JVMs (four each, one thread each) take one lock {@value #HOLDS} times
     * in all: no two ever hold it at once (an occupancy counter and a read-then-write counter
     * under the lock), each manager gets at least 1/(2N) of the holds, and nothing is left in
     * Redis.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"reentrant", "write"})
    void eightProcessesHammeringOneLockEachGetTheirShare(String kind) {
        String name = "hammered-" + kind;
        int managers = 8;
        try (JavaProcess first = JavaProcess.start(LockWorker.class, "hammer", redis.uri(), name, kind, "4",
                Integer.toString(HOLDS), "A");
             JavaProcess second = JavaProcess.start(LockWorker.class, "hammer", redis.uri(), name, kind, "4",
                     Integer.toString(HOLDS), "B")) {
            first.awaitLine("READY", Duration.ofMinutes(1));
            second.awaitLine("READY", Duration.ofMinutes(1));
            redis.node().command("RPUSH", "go:A", "go");
            redis.node().command("RPUSH", "go:B", "go");
            assertThat(first.awaitLine("DONE", Duration.ofMinutes(3))).isEqualTo("DONE");
            assertThat(second.awaitLine("DONE", Duration.ofMinutes(3))).isEqualTo("DONE");
            assertThat(first.awaitExit(Duration.ofSeconds(30))).isZero();
            assertThat(second.awaitExit(Duration.ofSeconds(30))).isZero();
        }

        @SuppressWarnings("unchecked")
        List<String> order = (List<String>) RespClient.call(redis.node().port(), "LRANGE", "order", "0", "-1");
        assertThat(redis.node().command("GET", "overlaps")).as("holds that overlapped another").isNull();
        assertThat(redis.node().command("GET", "shared")).as("no lost update").isEqualTo(Integer.toString(order.size()));
        Map<String, Long> holds = order.stream().collect(Collectors.groupingBy(label -> label, Collectors.counting()));
        assertThat(holds).as("holds per manager of %d", order.size()).hasSize(managers);
        assertThat(holds.values()).as("holds per manager: %s", holds)
                .allMatch(count -> count >= order.size() / (2L * managers));
        assertNothingLeft(5_000); // the default command timeout, the release latches' lifetime
    }

    private static final int HOLDS = 800;

    /**
     * Asserts that no lock state is left in Redis; shows what is, with its time to live.
     */
    private static void assertNothingLeft(long commandTimeoutMillis) {
        List<String> left = redis.lockStateLeftBehind(commandTimeoutMillis);
        assertThat(left).as("lock state left behind: %s", left.stream().map(key -> key + " = " + stateOf(key)
                + " (pttl " + redis.node().command("PTTL", key) + " ms)").toList()).isEmpty();
    }

    /**
     * @return what a key holds (a string's value or a hash's fields), for assertion messages
     */
    private static Object stateOf(String key) {
        return "hash".equals(redis.node().command("TYPE", key))
                ? RespClient.call(redis.node().port(), "HGETALL", key)
                : RespClient.call(redis.node().port(), "GET", key);
    }

    private static LockManager manager(Duration commandTimeout) {
        return Locksmith.builder().redisUri(redis.uri()).leaseTime(LEASE).commandTimeout(commandTimeout).build();
    }

    /**
     * @return a manager connected as a Redis user of its own, made here with every permission, so
     *         that the test can take permissions away from this manager alone; the caller deletes it
     */
    private static LockManager managerAs(String user, Duration commandTimeout) {
        redis.node().command("ACL", "SETUSER", user, "on", ">secret", "~*", "&*", "+@all");
        String uri = redis.uri().replace("redis://", "redis://" + user + ":secret@");
        return Locksmith.builder().redisUri(uri).leaseTime(LEASE).commandTimeout(commandTimeout).build();
    }

    private static JavaProcess waiter(String name, String kind, Duration commandTimeout, Duration wait, String label) {
        return JavaProcess.start(LockWorker.class, "wait", redis.uri(), name, kind, Long.toString(LEASE.toMillis()),
                Long.toString(commandTimeout.toMillis()), Long.toString(wait.toMillis()), label);
    }

    /**
     * @return completes with System.nanoTime() when that thread acquired the lock (within 20 s)
     */
    private static CompletableFuture<Long> acquireIn(ExecutorService thread, DistributedLock lock) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                if (!lock.tryLock(20, TimeUnit.SECONDS)) {
                    throw new AssertionError("not acquired within 20 s");
                }
                return System.nanoTime();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }, thread);
    }

    private static void unlockIn(ExecutorService thread, DistributedLock lock) throws Exception {
        CompletableFuture.runAsync(lock::unlock, thread).get(20, TimeUnit.SECONDS);
    }

    /**
     * @return the manager ids of the lock's ring of waiting processes, in turn order
     */
    private static List<String> ring(String kind, String name) {
        return LockRing.of(redis.node(), kind, name).managers();
    }

    private static List<String> awaitRing(String kind, String name, int size) {
        return LockRing.of(redis.node(), kind, name).awaitSize(size);
    }

    private static void awaitRingContaining(String kind, String name, String managerId) {
        LockRing.of(redis.node(), kind, name).awaitContaining(managerId);
    }

    /**
     * @return the manager the lock stands offered to, or null
     */
    private static String offeredTo(String kind, String name) {
        String offer;
        if (kind.equals("reentrant")) {
            String value = (String) RespClient.call(redis.node().port(), "GET", "locksmith:{" + name + "}");
            offer = value != null && value.startsWith("r") ? value.substring(1) : null;
        } else {
            offer = (String) RespClient.call(redis.node().port(), "HGET", "locksmith:{" + name + "}:rw", "x");
        }
        // A write lock's offer that was taken reads '' until the next release.
        return offer == null || offer.isEmpty() ? null : offer.substring(0, offer.indexOf(":|"));
    }

    /**
     * @return the lock's whole state in Redis, for assertion messages
     */
    private static Object lockState(String kind, String name) {
        return stateOf(lockKey(kind, name));
    }

    private static String lockKey(String kind, String name) {
        return "locksmith:{" + name + "}" + (kind.equals("reentrant") ? "" : ":rw");
    }

    /**
     * @return the channel on which only that manager's process hears of the lock
     */
    private static String address(String kind, String name, String managerId) {
        return lockKey(kind, name) + ":released:" + managerId + ":";
    }

    /**
     * @return how many scripts Redis ran since the last {@code CONFIG RESETSTAT}
     */
    private static long scriptCalls() {
        return redis.node().command("INFO", "commandstats").lines()
                .filter(line -> line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:"))
                .mapToLong(line -> Long.parseLong(line.replaceAll("^[a-z_]*:calls=(\\d+),.*", "$1"))).sum();
    }


    private static String pubSubClientIdOf(String user) {
        String clients = (String) RespClient.call(redis.node().port(), "CLIENT", "LIST", "TYPE", "pubsub");
        List<String> ids = clients.lines().filter(line -> line.contains(" user=" + user + " "))
                .map(line -> line.substring("id=".length(), line.indexOf(' '))).toList();
        assertThat(ids).as("pub/sub connections of %s in %s", user, clients).hasSize(1);
        return ids.get(0);
    }


    private static java.util.concurrent.ThreadFactory named(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, "wake-one-" + name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
