package dev.locksmith.internal.lock;

import dev.locksmith.internal.lock.kind.AcquireRequest;
import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.lock.local.Deadline;
import dev.locksmith.internal.lock.local.HandOver;
import dev.locksmith.internal.lock.local.LocalContention;
import dev.locksmith.internal.lock.local.ManagerState;
import dev.locksmith.internal.lock.local.Turn;
import dev.locksmith.internal.lock.local.Waiting;
import dev.locksmith.internal.lock.ring.OfferAttempt;
import dev.locksmith.internal.lock.ring.OfferDesk;
import dev.locksmith.internal.lock.ring.ProcessRing;
import dev.locksmith.internal.wire.OfferMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.internal.wire.OfferMessage;
import dev.locksmith.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When Redis offers the lock to this process, the pub/sub thread claims the first waiter of the
 * line if it sleeps, sends that waiter's attempt at once, and wakes it with the answer. Each test
 * holds the attempt's answer in its hand (the {@link OfferAttempt} returns a future the test
 * completes), so every interleaving of the claim with the waiter's interrupt, deadline or a
 * failed round trip happens on cue. Redis itself is not needed: what is under test is the
 * protocol between the two threads.
 */
class OfferClaimTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final String OFFER = new OfferMessage(41, 0).text();

    private final ExecutorService waiterThread = Executors.newSingleThreadExecutor();
    private final LinkedBlockingQueue<CompletableFuture<List<Long>>> attempts = new LinkedBlockingQueue<>();
    private final LinkedBlockingQueue<Long> grantsTaken = new LinkedBlockingQueue<>();
    private final ManagerState state = new ManagerState();
    private final OfferDesk desk = new OfferDesk(null, null, 1_000, 30_000, 60_000);
    private final LocalContention contention = new LocalContention(LockKeys.of("locksmith", "offered"), state,
            5 * SECOND, System::nanoTime, desk, "manager-a", lock -> false);

    @AfterEach
    void stop() {
        waiterThread.shutdownNow();
    }

    @Test
    void aSleepingWaiterWakesHoldingTheLockItsProcessWasOffered() throws Exception {
        HandOver me = contention.waits().join("manager-a:1", 30_000, "worker", this::attempt);
        Sleeper waiter = sleepUntilWoken(me, 60 * SECOND, Waiting.uninterruptible());

        contention.wake(OFFER);
        CompletableFuture<List<Long>> attempt = sentAttempt();
        assertThat(waiter.woken()).as("the waiter sleeps until its attempt is answered").isNotDone();
        attempt.complete(List.of(1L, 42L));

        assertThat(waiter.turn()).isEqualTo(Turn.HANDED);
        assertThat(me.token()).as("the fencing token Redis answered").isEqualTo(42L);
        assertThat(contention.ring().awaitsOffer()).as("the offer is taken").isFalse();
    }

    /**
     * An offer in a format this version does not read (an older version's {@code o<token>.<number>})
     * is a plain wake-up: no attempt is sent for the waiter, which wakes to ask Redis itself, and the
     * offer is counted.
     */
    @Test
    void anOfferOfAnotherFormatWakesTheFirstWaiterToAskAndIsCounted() throws Exception {
        HandOver me = contention.waits().join("manager-a:1", 30_000, "worker", this::attempt);
        Sleeper waiter = sleepUntilWoken(me, 60 * SECOND, Waiting.uninterruptible());

        contention.wake("o41.0");

        assertThat(waiter.turn()).as("woken to ask Redis, whose attempt takes a lock offered here")
                .isEqualTo(Turn.ASK);
        assertThat(attempts).as("no attempt sent on the waiter's behalf").isEmpty();
        assertThat(desk.unreadableOffers()).isOne();
    }

    @Test
    void aWaiterInterruptedWhileItsAttemptIsUnderWayTakesTheLockAndKeepsTheInterrupt() throws Exception {
        HandOver me = contention.waits().join("manager-a:1", 30_000, "worker", this::attempt);
        Sleeper waiter = sleepUntilWoken(me, 60 * SECOND, Waiting.interruptible());

        contention.wake(OFFER);
        CompletableFuture<List<Long>> attempt = sentAttempt();
        waiter.thread().interrupt();
        // The interrupt was taken (its flag cleared) and the claimed waiter sleeps for its answer. A
        // waiter woken but not yet back under the mutex also counts as asleep; the answer then
        // finds it claimed all the same, and the assertions below hold either way.
        Await.until("the interrupted waiter waits for the answer again", Duration.ofSeconds(10),
                () -> !waiter.thread().isInterrupted() && contention.sleepingWaiters().outsideLine() == 1);
        assertThat(waiter.woken()).isNotDone();
        attempt.complete(List.of(1L, 43L));

        assertThat(waiter.turn()).as("Redis granted it: an interrupt cannot undo that")
                .isEqualTo(Turn.HANDED);
        assertThat(waiter.woken().get().interrupted()).as("the interrupt is kept for the caller").isTrue();
    }

    @Test
    void aWaiterWhoseTimeoutPassesWhileItsAttemptIsUnderWayStillGetsTheAnswer() throws Exception {
        HandOver me = contention.waits().join("manager-a:1", 30_000, "worker", this::attempt);
        long timeout = TimeUnit.MILLISECONDS.toNanos(300);
        long start = System.nanoTime();
        Sleeper waiter = sleepUntilWoken(me, timeout, Waiting.uninterruptible());

        contention.wake(OFFER);
        CompletableFuture<List<Long>> attempt = sentAttempt();
        Await.until("the waiter's own timeout passed", Duration.ofSeconds(10),
                () -> System.nanoTime() - start > 2 * timeout);
        assertThat(waiter.woken()).as("a claimed waiter waits for its answer past its own timeout").isNotDone();
        attempt.complete(List.of(1L, 44L));

        assertThat(waiter.turn()).isEqualTo(Turn.HANDED);
    }

    @Test
    void anOfferThatIsNoLongerThereLeavesTheWaiterFirstInLineWaitingForTheNext() throws Exception {
        HandOver me = contention.waits().join("manager-a:1", 30_000, "worker", this::attempt);
        Sleeper waiter = sleepUntilWoken(me, 60 * SECOND, Waiting.uninterruptible());

        contention.wake(OFFER);
        sentAttempt().complete(List.of(0L, 25_000L, 1L));

        assertThat(waiter.turn()).isEqualTo(Turn.ASK);
        assertThat(me.uncertainSince()).isEqualTo(HandOver.NONE);
        assertThat(contention.ring().awaitsOffer()).as("Redis kept this process in the ring").isTrue();
        assertThat(contention.waits().awaitTurn(me, Deadline.in(SECOND), Waiting.uninterruptible()))
                .as("first in line again").isEqualTo(Turn.ASK);
    }

    @Test
    void anAttemptThatFailsSendsTheWaiterToAskRedisItselfInsteadOfAwaitingAnotherOffer() throws Exception {
        HandOver me = contention.waits().join("manager-a:1", 30_000, "worker", this::attempt);
        Sleeper first = sleepUntilWoken(me, 60 * SECOND, Waiting.uninterruptible());
        contention.wake(OFFER);
        sentAttempt().complete(List.of(0L, 25_000L, 1L)); // in the ring, awaiting the next offer
        assertThat(first.turn()).isEqualTo(Turn.ASK);
        assertThat(contention.ring().awaitsOffer()).isTrue();
        long before = System.nanoTime();
        Sleeper second = sleepUntilWoken(me, 60 * SECOND, Waiting.uninterruptible());

        contention.wake(new OfferMessage(41, 1).text());
        sentAttempt().completeExceptionally(new IllegalStateException("no answer"));

        assertThat(second.turn()).isEqualTo(Turn.ASK);
        assertThat(me.uncertainSince()).as("Redis may have granted it: a hold found there dates from the attempt")
                .isGreaterThanOrEqualTo(before);
        assertThat(contention.ring().awaitsOffer()).as("the offer heard still stands: the waiter asks for it")
                .isFalse();
    }

    /**
     * The pub/sub thread that hears the offer cannot send the waiter's attempt: an {@code Error}
     * (here a class that fails to load on that thread). The waiter is settled at once and asks
     * Redis itself; it does not wait out the claim patience (a minute here).
     */
    @Test
    void anErrorWhileSendingTheOffersAttemptSettlesTheWaiterAtOnce() throws Exception {
        LocalContention patient = new LocalContention(LockKeys.of("locksmith", "offered"), state, 60 * SECOND,
                System::nanoTime, new OfferDesk(null, null, 1_000, 30_000, 60_000), "manager-a", lock -> false);
        HandOver me = patient.waits().join("manager-a:1", 30_000, "worker", grant -> {
            throw new NoClassDefFoundError("dev/locksmith/internal/lock/AcquireRequest");
        });
        long before = System.nanoTime();
        Sleeper waiter = sleepUntilWoken(patient, me, 120 * SECOND, Waiting.uninterruptible());

        assertThatThrownBy(() -> patient.wake(OFFER)).as("the Error goes on up the pub/sub thread")
                .isInstanceOf(NoClassDefFoundError.class);

        assertThat(waiter.turn()).as("settled at once, not after the claim patience").isEqualTo(Turn.ASK);
        assertThat(me.uncertainSince()).isGreaterThanOrEqualTo(before);
    }

    /**
     * The answer to the waiter's attempt cannot be read (it lacks the fencing token), so settling
     * the claim throws on the thread that completed the attempt: the waiter is settled all the
     * same, at once, and asks Redis itself.
     */
    @Test
    void anAnswerThatCannotBeReadStillSettlesTheWaiterAtOnce() throws Exception {
        LocalContention patient = new LocalContention(LockKeys.of("locksmith", "offered"), state, 60 * SECOND,
                System::nanoTime, new OfferDesk(null, null, 1_000, 30_000, 60_000), "manager-a", lock -> false);
        HandOver me = patient.waits().join("manager-a:1", 30_000, "worker", this::attempt);
        Sleeper waiter = sleepUntilWoken(patient, me, 120 * SECOND, Waiting.uninterruptible());

        patient.wake(OFFER);
        sentAttempt().complete(List.of(1L));

        assertThat(waiter.turn()).as("settled at once, not after the claim patience").isEqualTo(Turn.ASK);
        assertThat(me.uncertainSince()).as("Redis may have granted it").isNotEqualTo(HandOver.NONE);
    }

    /**
     * A grant heard well within its patience, counted from the attempt that put this process in
     * the ring (a grant with a newer token): the sleeping waiter holds the lock at once, with the
     * grant's token, and the confirmation sent for it is not waited for.
     */
    @Test
    void aGrantHeardInTimeHandsTheSleepingWaiterTheLockBeforeRedisConfirmsIt() throws Exception {
        long heardAt = System.nanoTime();
        contention.ring().grants().joinedRing(heardAt, 40);
        HandOver me = contention.waits().join("manager-a:1", 30_000, "worker", this::attempt);
        Sleeper waiter = sleepUntilWoken(me, 60 * SECOND, Waiting.uninterruptible());

        contention.wake(new OfferMessage(41, 0, 57, 1_000).text());
        CompletableFuture<List<Long>> confirmation = sentAttempt();

        assertThat(grantsTaken).as("the confirmation takes the grant's token").containsExactly(57L);
        assertThat(waiter.turn()).as("handed before the confirmation's answer").isEqualTo(Turn.HANDED);
        assertThat(confirmation).isNotDone();
        assertThat(me.token()).isEqualTo(57L);
        assertThat(me.confirmation()).isSameAs(confirmation);
        assertThat(me.trustedUntil() - heardAt).as("trusted for what is left of the patience, at most")
                .isPositive().isLessThanOrEqualTo(SECOND);
        assertThat(contention.ring().heardGrant()).as("taken, never declined").isEqualTo(ProcessRing.NO_GRANT);
        confirmation.complete(List.of(1L, 57L));
    }

    /**
     * A grant heard with less than half its patience left, counted from this process's latest
     * attempt in the ring (here 600 of 1,000 ms gone): the waiter sleeps on until Redis confirmed it,
     * as for an offer.
     */
    @Test
    void aGrantHeardLateIsHandedOnlyOnceRedisConfirmedIt() throws Exception {
        contention.ring().grants().joinedRing(System.nanoTime() - 600 * SECOND / 1_000, 40);
        HandOver me = contention.waits().join("manager-a:1", 30_000, "worker", this::attempt);
        Sleeper waiter = sleepUntilWoken(me, 60 * SECOND, Waiting.uninterruptible());

        contention.wake(new OfferMessage(41, 0, 57, 1_000).text());
        CompletableFuture<List<Long>> confirmation = sentAttempt();
        assertThat(waiter.woken()).as("asleep until the confirmation is answered").isNotDone();
        confirmation.complete(List.of(1L, 57L));

        assertThat(waiter.turn()).isEqualTo(Turn.HANDED);
        assertThat(me.token()).isEqualTo(57L);
        assertThat(me.confirmation()).as("confirmed before it was handed").isNull();
    }

    /**
     * A grant heard by a process that has no attempt in the ring to count from yet cannot be
     * trusted: Redis's answer decides, and a refusal sends the waiter to ask Redis itself.
     */
    @Test
    void aGrantHeardWithoutTheServersTimeIsHandedOnlyOnceRedisConfirmedIt() throws Exception {
        HandOver me = contention.waits().join("manager-a:1", 30_000, "worker", this::attempt);
        Sleeper waiter = sleepUntilWoken(me, 60 * SECOND, Waiting.uninterruptible());

        contention.wake(new OfferMessage(41, 0, 57, 1_000).text());
        CompletableFuture<List<Long>> confirmation = sentAttempt();
        assertThat(waiter.woken()).isNotDone();
        confirmation.complete(List.of(0L, 25_000L));

        assertThat(waiter.turn()).as("the grant was gone: the waiter asks").isEqualTo(Turn.ASK);
    }

    /**
     * A waiter handed a grant on its word whose confirmation Redis refused before the waiter took
     * it goes back to the front of the line to ask Redis ({@code LineWaiting} says so with
     * {@code handOverTaken(me, false)}): the next offer to this process finds it there and is kept
     * for it, not declined as if nobody here waited.
     */
    @Test
    void aWaiterWhoseGrantWasRefusedBeforeItTookItIsFirstInLineForTheNextOffer() throws Exception {
        contention.ring().grants().joinedRing(System.nanoTime(), 40);
        HandOver me = contention.waits().join("manager-a:1", 30_000, "worker", this::attempt);
        Sleeper waiter = sleepUntilWoken(me, 60 * SECOND, Waiting.uninterruptible());
        contention.wake(new OfferMessage(41, 0, 57, 1_000).text());
        CompletableFuture<List<Long>> confirmation = sentAttempt();
        assertThat(waiter.turn()).isEqualTo(Turn.HANDED);

        confirmation.complete(List.of(0L, 25_000L));
        contention.waits().handOverTaken(me, false);
        long wakeUps = contention.wakeUps().count();
        contention.wake(new OfferMessage(58, 0, 60, 1_000).text());

        assertThat(contention.ring().heardGrant()).as("the next grant is kept for the waiter").isEqualTo(60L);
        assertThat(contention.wakeUps().count()).as("the waiter, awake, is told to ask").isEqualTo(wakeUps + 1);
    }

    @Test
    void aWaiterThatIsNotAsleepIsWokenToAskInstead() {
        contention.waits().join("manager-a:1", 30_000, "worker", this::attempt);

        long seen = contention.wakeUps().count();
        contention.wake(OFFER);

        assertThat(attempts).as("no attempt sent for a waiter that is awake").isEmpty();
        assertThat(contention.wakeUps().count()).as("the waiter sees the wake-up when it next looks").isEqualTo(seen + 1);
    }

    private CompletableFuture<List<Long>> attempt(long grant) {
        grantsTaken.add(grant);
        CompletableFuture<List<Long>> answer = new CompletableFuture<>();
        attempts.add(answer);
        return answer;
    }

    private CompletableFuture<List<Long>> sentAttempt() throws InterruptedException {
        CompletableFuture<List<Long>> attempt = attempts.poll(10, TimeUnit.SECONDS);
        assertThat(attempt).as("the offer sent the sleeping waiter's attempt").isNotNull();
        return attempt;
    }

    /**
     * Puts {@code me} to sleep in {@link LineWaits#awaitWakeUp} on the waiter thread and
     * returns once it sleeps there (parked, so a claim can reach it).
     */
    private Sleeper sleepUntilWoken(HandOver me, long timeoutNanos, Waiting waiting) {
        return sleepUntilWoken(contention, me, timeoutNanos, waiting);
    }

    private Sleeper sleepUntilWoken(LocalContention contention, HandOver me, long timeoutNanos, Waiting waiting) {
        CompletableFuture<Thread> sleeping = new CompletableFuture<>();
        Future<Woken> woken = waiterThread.submit(() -> {
            long seen = contention.wakeUps().count();
            sleeping.complete(Thread.currentThread());
            Turn turn = contention.waits().awaitWakeUp(me, seen, timeoutNanos, waiting);
            waiting.finish();
            return new Woken(turn, Thread.interrupted());
        });
        Thread thread = sleeping.join();
        Await.until("the waiter sleeps", Duration.ofSeconds(10), () -> contention.sleepingWaiters().inLine() == 1);
        return new Sleeper(thread, woken);
    }

    /** What the waiter's sleep ended with, and whether its thread was interrupted afterwards. */
    private record Woken(Turn turn, boolean interrupted) {
    }

    private record Sleeper(Thread thread, Future<Woken> woken) {
        Turn turn() throws Exception {
            return woken.get(10, TimeUnit.SECONDS).turn();
        }
    }
}
