package dev.locksmith.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.internal.store.ScriptLabels;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.FaultProxy;
import dev.locksmith.testing.FaultProxy.Fault;
import dev.locksmith.testing.FaultProxy.Traced;
import dev.locksmith.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A hand-off of the reentrant lock between processes in one round trip, seen from outside: the
 * releasing process's script grants the lock to the waiting process, whose sleeping thread holds
 * it on hearing the grant, while the grant's confirmation is still on its way. Process B talks to
 * Redis through a {@link FaultProxy}, which records what B sends and holds back or refuses the
 * answer to B's confirmation ({@code EVALSHA take-grant}) on cue; A and C connect directly.
 */
class GrantHandOffTest {
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration HELD_BACK = Duration.ofSeconds(2);
    private static final Map<String, String> SCRIPT_LABELS = ScriptLabels.operationsBySha();

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final ExecutorService threadOfB = Executors.newSingleThreadExecutor();
    private final ExecutorService threadOfC = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        threadOfB.shutdownNow();
        threadOfC.shutdownNow();
    }

    /**
     * The answer to B's confirmation is held back for two seconds: B's waiting thread holds the
     * lock long before that answer arrives, and the hand-off cost B one command, which it did not
     * wait for. B then releases normally, and nothing is left in Redis.
     */
    @Test
    void aWaitingProcessHoldsTheLockOnHearingItsGrantBeforeRedisConfirmsIt() throws Exception {
        try (FaultProxy proxy = FaultProxy.inFrontOf(redis.node(), SCRIPT_LABELS::get, channel -> channel);
             LockManager a = manager(redis.uri());
             LockManager b = manager(proxy.uri())) {
            DistributedLock held = a.getLock("granted");
            held.lock();
            long releasedToken = held.fencingToken();
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Long> bHolds = new CompletableFuture<>();
            CompletableFuture<Void> bDone = CompletableFuture.runAsync(() -> holdUntil(b.getLock("granted"), bHolds,
                    release), threadOfB);
            awaitAsleepInRing(b, "granted");

            proxy.clearTrace();
            proxy.arm(Fault.noAnswer("EVALSHA take-grant", 1, HELD_BACK));
            held.unlock();

            long token = bHolds.get(10, TimeUnit.SECONDS);
            long holdingAt = System.nanoTime();
            // B held the lock without waiting for Redis: the proxy may read B's confirmation a little later.
            Traced confirmation = proxy.awaitFired(Duration.ofSeconds(5));
            assertThat(confirmation).as("B sent its grant's confirmation").isNotNull();
            assertThat(holdingAt - confirmation.nanoTime()).as("B held the lock while Redis's answer was held back")
                    .isLessThan(HELD_BACK.toNanos());
            assertThat(commandsOf(proxy)).as("what B sent for the hand-off").containsExactly("EVALSHA take-grant");
            assertThat(token).as("the grant's token, above the releaser's").isGreaterThan(releasedToken);

            release.countDown();
            bDone.get(10, TimeUnit.SECONDS);
            assertThat(proxy.trace().stream().filter(entry -> !entry.push()).map(Traced::signature))
                    .as("B released after the confirmation").containsSubsequence("EVALSHA take-grant", "EVALSHA release");
        }
        assertNothingLeft();
    }

    /**
     * B's thread releases at once, while the answer to its confirmation is still held back: the
     * release goes out without waiting for it, behind it on B's connection, so Redis runs the
     * confirmation, then the release, and C (second in the ring) holds the lock before B's
     * answers arrive. B's {@code unlock()} then returns as usual.
     */
    @Test
    void aReleaseSentBeforeTheConfirmationIsAnsweredPassesTheLockOn() throws Exception {
        try (FaultProxy proxy = FaultProxy.inFrontOf(redis.node(), SCRIPT_LABELS::get, channel -> channel);
             LockManager a = manager(redis.uri());
             LockManager b = manager(proxy.uri());
             LockManager c = manager(redis.uri())) {
            Waiters waiters = bFirstThenC(a, b, c, "outrun");
            proxy.clearTrace();
            proxy.arm(Fault.noAnswer("EVALSHA take-grant", 1, HELD_BACK));
            long releasedAt = System.nanoTime();
            waiters.held().unlock();

            waiters.cHolds().get(10, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).as("C held before B's answers came")
                    .isLessThan(HELD_BACK);
            assertThat(waiters.bDone()).as("B's unlock() waits for its answers").isNotDone();
            waiters.bDone().get(10, TimeUnit.SECONDS);
            // (Its watch of the offer may check it once, answered late as it was.)
            assertThat(commandsOf(proxy)).as("what B sent for its hold: the confirmation, then the release")
                    .filteredOn(command -> command.endsWith(" take-grant") || command.endsWith(" release"))
                    .containsExactly("EVALSHA take-grant", "EVALSHA release");
            assertThat(leasesLost(b)).as("holds B lost").isZero();
        }
        assertNothingLeft();
    }

    /**
     * Redis answers B's confirmation {@code NOSCRIPT} (its script cache was flushed, say), and that
     * answer comes only after B's release reached Redis: B's client sends the confirmation again
     * after the release, so Redis runs the release first. Redis takes it from B all the same (it
     * names B's grant), C holds the lock, and the late confirmation changes nothing: no hold is
     * lost, nothing stays locked.
     */
    @Test
    void aReleaseThatRedisRunsBeforeTheConfirmationStillEndsTheHold() throws Exception {
        try (FaultProxy proxy = FaultProxy.inFrontOf(redis.node(), SCRIPT_LABELS::get, channel -> channel);
             LockManager a = manager(redis.uri());
             LockManager b = manager(proxy.uri());
             LockManager c = manager(redis.uri())) {
            Waiters waiters = bFirstThenC(a, b, c, "reordered");
            proxy.clearTrace();
            proxy.arm(Fault.heldErrorReply("EVALSHA take-grant", 1, FaultProxy.NOSCRIPT, HELD_BACK));
            waiters.held().unlock();

            waiters.cHolds().get(10, TimeUnit.SECONDS);
            assertThat(commandsOf(proxy)).as("B's release reached Redis before its confirmation was sent again")
                    .containsSubsequence("EVALSHA take-grant", "EVALSHA release").doesNotContain("EVAL take-grant");
            waiters.bDone().get(10, TimeUnit.SECONDS);
            Await.until("B sent its confirmation again, after the release", Duration.ofSeconds(5),
                    () -> commandsOf(proxy).contains("EVAL take-grant"));
            assertThat(commandsOf(proxy)).containsSubsequence("EVALSHA take-grant", "EVALSHA release", "EVAL take-grant");
            assertThat(leasesLost(b)).as("holds B lost").isZero();
        }
        assertNothingLeft();
    }

    /**
     * B has a second thread asleep behind the first when A's release grants the lock to B, and C
     * waits second in the ring; the answer to B's confirmation is held back. B's first thread
     * holds the lock on hearing the grant and releases at once, but waits for the confirmation
     * before it hands the lock to B's second thread: a hand-over needs a confirmed hold, and a
     * release on the grant's word would send the lock to C, so that under contention it would
     * leave for the ring at every release instead of every few hand-overs.
     */
    @Test
    void aGrantedProcessHandsTheLockToItsOwnSleepingThreadOnceTheGrantIsConfirmed() throws Exception {
        ExecutorService secondThreadOfB = Executors.newSingleThreadExecutor();
        try (FaultProxy proxy = FaultProxy.inFrontOf(redis.node(), SCRIPT_LABELS::get, channel -> channel);
             LockManager a = manager(redis.uri());
             LockManager b = manager(proxy.uri());
             LockManager c = manager(redis.uri())) {
            DistributedLock held = a.getLock("kept-here");
            held.lock();
            List<String> holders = new CopyOnWriteArrayList<>();
            CompletableFuture<Void> b1 = CompletableFuture.runAsync(
                    () -> holdInTurn(b.getLock("kept-here"), "B1", holders), threadOfB);
            awaitAsleepInRing(b, "kept-here");
            CompletableFuture<Void> b2 = CompletableFuture.runAsync(
                    () -> holdInTurn(b.getLock("kept-here"), "B2", holders), secondThreadOfB);
            Await.until("B's second thread sleeps behind the first", Duration.ofSeconds(10),
                    () -> ((DefaultLockManager) b).sleepingWaiters("kept-here").inLine() == 2);
            CompletableFuture<Void> cDone = CompletableFuture.runAsync(
                    () -> holdInTurn(c.getLock("kept-here"), "C", holders), threadOfC);
            awaitSecondInRing("kept-here");

            proxy.clearTrace();
            proxy.arm(Fault.noAnswer("EVALSHA take-grant", 1, HELD_BACK));
            held.unlock();

            CompletableFuture.allOf(b1, b2, cDone).get(20, TimeUnit.SECONDS);
            assertThat(holders).as("who held the lock, in turn").containsExactly("B1", "B2", "C");
            // (A script Redis does not know yet goes out again as EVAL: the same operation.)
            assertThat(commandsOf(proxy).stream().map(command -> command.substring(command.indexOf(' ') + 1))
                    .filter(operation -> List.of("take-grant", "hand-over", "release").contains(operation)).distinct())
                    .as("what B sent for its two holds: the lock went from thread to thread, not back to Redis")
                    .containsExactly("take-grant", "hand-over", "release");
            assertThat(leasesLost(b)).as("holds B lost").isZero();
        } finally {
            secondThreadOfB.shutdownNow();
        }
        assertNothingLeft();
    }

    /**
     * B's thread waited for a lock and gave up, so B stays in its ring while its subscription
     * lingers; A's release grants the lock to B, with nobody there waiting. B's decline is refused
     * (Redis never sees it), so the grant stands when a multi-lock of B tries that lock and another
     * at once: its attempt, which joins no ring, takes the grant to its own process instead of
     * being told that the lock is taken.
     */
    @Test
    void aMultiLocksAttemptTakesAGrantToItsProcessThatNobodyThereWaitedFor() throws Exception {
        try (FaultProxy proxy = FaultProxy.inFrontOf(redis.node(), SCRIPT_LABELS::get, channel -> channel);
             LockManager a = manager(redis.uri());
             LockManager b = manager(proxy.uri())) {
            DistributedLock held = a.getLock("parts-a");
            held.lock();
            assertThat(b.getLock("parts-a").tryLock(200, TimeUnit.MILLISECONDS)).as("B waited and gave up").isFalse();
            awaitRingOf("parts-a");

            proxy.arm(Fault.errorReply("EVALSHA pass-offer", 1,
                    "NOPERM this user has no permissions to access one of the keys used as arguments"));
            held.unlock();
            Await.until("B declined the grant, and Redis never saw it", Duration.ofSeconds(10),
                    () -> proxy.fired() != null);
            assertThat(String.valueOf(redis.node().command("GET", "locksmith:{parts-a}"))).as("granted to B")
                    .startsWith("r");

            DistributedLock parts = b.getMultiLock(b.getLock("parts-a"), b.getLock("parts-b"));
            assertThat(parts.tryLock()).as("B's multi-lock took both parts at once").isTrue();
            parts.unlock();
        }
        assertNothingLeft();
    }

    /** A's hold, B's thread waiting first in the ring (it releases as soon as it holds), C's second. */
    private record Waiters(DistributedLock held, CompletableFuture<Void> bDone, CompletableFuture<Long> cHolds) {
    }

    /**
     * A takes the lock; B's thread waits for it first in the ring, then C's second. Each releases
     * as soon as it holds the lock; C's future completes with its token once it held it.
     */
    private Waiters bFirstThenC(LockManager a, LockManager b, LockManager c, String name) {
        DistributedLock held = a.getLock(name);
        held.lock();
        CompletableFuture<Void> bDone = CompletableFuture.runAsync(() -> lockAndUnlock(b.getLock(name)), threadOfB);
        awaitAsleepInRing(b, name);
        CompletableFuture<Long> cHolds = CompletableFuture.supplyAsync(() -> lockAndUnlock(c.getLock(name)), threadOfC);
        awaitSecondInRing(name);
        return new Waiters(held, bDone, cHolds);
    }

    private static long lockAndUnlock(DistributedLock lock) {
        lock.lock();
        try {
            return lock.fencingToken();
        } finally {
            lock.unlock();
        }
    }

    /** Takes the lock, adds {@code name} to {@code holders} while it holds it, and releases it. */
    private static void holdInTurn(DistributedLock lock, String name, List<String> holders) {
        lock.lock();
        try {
            holders.add(name);
        } finally {
            lock.unlock();
        }
    }

    private static long leasesLost(LockManager manager) {
        return ((DefaultLockManager) manager).statistics().leasesLost();
    }

    /**
     * Redis refuses B's confirmation (an error retrying cannot fix, here {@code NOPERM}): B's
     * thread never holds the lock beside another holder (either it was not handed the grant yet
     * and asks Redis again, or its hold is reported lost), and B passes the grant on at once, so C
     * gets the lock long before A's watch would pass it on (one command timeout). B gets the lock
     * after C.
     */
    @Test
    void aGrantWhoseConfirmationRedisRefusesIsPassedOnAtOnce() throws Exception {
        try (FaultProxy proxy = FaultProxy.inFrontOf(redis.node(), SCRIPT_LABELS::get, channel -> channel);
             LockManager a = manager(redis.uri());
             LockManager b = manager(proxy.uri());
             LockManager c = manager(redis.uri())) {
            DistributedLock held = a.getLock("refused");
            held.lock();
            AtomicReference<String> holder = new AtomicReference<>();
            List<String> violations = new CopyOnWriteArrayList<>();
            CountDownLatch cReleases = new CountDownLatch(1);
            CompletableFuture<Void> bDone = CompletableFuture.runAsync(() -> holdExclusively(b.getLock("refused"),
                    "B", holder, violations, new CountDownLatch(0)), threadOfB);
            awaitAsleepInRing(b, "refused");
            CompletableFuture<Void> cDone = CompletableFuture.runAsync(() -> holdExclusively(c.getLock("refused"),
                    "C", holder, violations, cReleases), threadOfC);
            awaitSecondInRing("refused");

            proxy.arm(Fault.errorReply("EVALSHA take-grant", 1,
                    "NOPERM this user has no permissions to access one of the keys used as arguments"));
            long releasedAt = System.nanoTime();
            held.unlock();

            Await.until("C holds the lock", Duration.ofSeconds(10), () -> "C".equals(holder.get()));
            assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).as("B passed the grant on at once")
                    .isLessThan(COMMAND_TIMEOUT.dividedBy(2));
            cReleases.countDown();
            cDone.get(10, TimeUnit.SECONDS);
            bDone.get(10, TimeUnit.SECONDS);
            assertThat(violations).as("two holders at once").isEmpty();
        }
        assertNothingLeft();
    }

    private static LockManager manager(String uri) {
        return Locksmith.builder().redisUri(uri).commandTimeout(COMMAND_TIMEOUT).build();
    }

    /** Until a second process (C) waits in the lock's ring behind the first. */
    private static void awaitSecondInRing(String name) {
        Await.until("C waits second in the ring", Duration.ofSeconds(10),
                () -> String.valueOf(redis.node().command("GET", "locksmith:{" + name + "}"))
                        .matches("(?s).*\\|,[^,]+,[^,]+,\\|.*"));
    }

    private static void holdUntil(DistributedLock lock, CompletableFuture<Long> holds, CountDownLatch release) {
        lock.lock();
        try {
            holds.complete(lock.fencingToken());
            release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the lock until this thread holds it with Redis's word for it: a hold that Redis then
     * reports lost (a grant whose confirmation was refused) is released and asked for again. Each
     * hold confirmed is recorded in {@code holder}, and one that finds another there is a violation.
     */
    private static void holdExclusively(DistributedLock lock, String name, AtomicReference<String> holder,
                                        List<String> violations, CountDownLatch release) {
        while (true) {
            lock.lock();
            boolean confirmed = lock.isHeldByCurrentThread();
            if (confirmed && !holder.compareAndSet(null, name)) {
                violations.add(name + " held the lock while " + holder.get() + " did");
            }
            try {
                if (confirmed) {
                    release.await(30, TimeUnit.SECONDS);
                    holder.compareAndSet(name, null);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                lock.unlock();
            } catch (LockLostException e) {
                if (confirmed) {
                    violations.add(name + "'s confirmed hold was lost: " + e.getMessage());
                }
            }
            if (confirmed) {
                return;
            }
        }
    }

    private static List<String> commandsOf(FaultProxy proxy) {
        return proxy.trace().stream().filter(entry -> !entry.push()).map(Traced::signature).toList();
    }

    /**
     * Until B's process is in the ring and its waiting thread sleeps, so that the grant reaches a
     * sleeping waiter, which holds the lock on hearing it: a waiter still settling the attempt that
     * joined the ring asks Redis itself, and holds the lock only once Redis answers.
     */
    private static void awaitAsleepInRing(LockManager b, String name) {
        awaitRingOf(name);
        Await.until("B's waiter sleeps", Duration.ofSeconds(10),
                () -> ((DefaultLockManager) b).sleepingWaiters(name).inLine() > 0);
    }

    private static void awaitRingOf(String name) {
        Await.until("a process waits in the ring of " + name, Duration.ofSeconds(10),
                () -> String.valueOf(redis.node().command("GET", "locksmith:{" + name + "}")).contains("|,"));
    }

    private static void assertNothingLeft() {
        assertThat(redis.lockStateLeftBehind(COMMAND_TIMEOUT.toMillis())).as("lock state left behind").isEmpty();
    }
}
