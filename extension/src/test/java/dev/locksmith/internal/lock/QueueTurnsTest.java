package dev.locksmith.internal.lock;

import dev.locksmith.internal.lock.local.QueueTurns;
import dev.locksmith.internal.lock.local.Waiting;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

/**
 * A fair waiter sleeps until a message names it or wakes everyone: a turn named for another owner
 * leaves it asleep, a turn named before it looked is not lost, and one named for an owner that
 * left is forgotten.
 */
class QueueTurnsTest {
    private static final long LONG_SLEEP = TimeUnit.SECONDS.toNanos(30);
    private static final long SHORT_SLEEP = TimeUnit.MILLISECONDS.toNanos(50);

    private final ReentrantLock mutex = new ReentrantLock();
    private final QueueTurns turns = new QueueTurns(mutex);

    /** When a sleep ended ({@link System#nanoTime()}), and how long it lasted. */
    private record Sleep(long endedAt, long nanos) {
    }

    @Test
    void aMessageNamingAnotherOwnerLeavesTheWaiterAsleep() throws Exception {
        turns.join("a");
        turns.join("b");
        CompletableFuture<Sleep> a = sleep("a", LONG_SLEEP);
        CompletableFuture<Sleep> b = sleep("b", LONG_SLEEP);

        hear("a");
        a.get(30, TimeUnit.SECONDS);
        long bNamedAt = System.nanoTime();
        hear("b");

        Sleep ofB = b.get(30, TimeUnit.SECONDS);
        assertThat(ofB.endedAt()).as("b slept until a message named it").isGreaterThanOrEqualTo(bNamedAt);
        assertThat(ofB.nanos()).as("and not its whole timeout").isLessThan(LONG_SLEEP);
    }

    @Test
    void aTurnNamedBeforeTheWaiterSleepsEndsItsNextSleepAtOnce() throws Exception {
        turns.join("a");
        hear("a");

        assertThat(sleep("a", LONG_SLEEP).get(30, TimeUnit.SECONDS).nanos()).isLessThan(LONG_SLEEP);
    }

    @Test
    void aTurnNamedForAnOwnerThatLeftIsForgotten() throws Exception {
        turns.join("a");
        hear("a");
        turns.leave("a");
        turns.join("a");

        assertThat(sleep("a", SHORT_SLEEP).get(30, TimeUnit.SECONDS).nanos()).as("slept its whole timeout")
                .isGreaterThanOrEqualTo(SHORT_SLEEP);
    }

    @Test
    void aTurnNamedForAnOwnerThatDoesNotWaitHereIsNotKept() throws Exception {
        hear("a");
        turns.join("a");

        assertThat(sleep("a", SHORT_SLEEP).get(30, TimeUnit.SECONDS).nanos()).as("slept its whole timeout")
                .isGreaterThanOrEqualTo(SHORT_SLEEP);
    }

    @Test
    void aMessageToEveryoneWakesEveryWaiter() throws Exception {
        turns.join("a");
        turns.join("b");
        CompletableFuture<Sleep> a = sleep("a", LONG_SLEEP);
        CompletableFuture<Sleep> b = sleep("b", LONG_SLEEP);

        hear("*");

        assertThat(a.get(30, TimeUnit.SECONDS).nanos()).isLessThan(LONG_SLEEP);
        assertThat(b.get(30, TimeUnit.SECONDS).nanos()).isLessThan(LONG_SLEEP);
    }

    private CompletableFuture<Sleep> sleep(String owner, long nanos) {
        long seen = turns.everyoneWoken(); // read before any message this test sends next, as QueueWaiting does
        return CompletableFuture.supplyAsync(() -> {
            long start = System.nanoTime();
            try {
                turns.await(owner, seen, nanos, Waiting.uninterruptible());
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            long end = System.nanoTime();
            return new Sleep(end, end - start);
        }, command -> new Thread(command, "fair waiter " + owner).start());
    }

    private void hear(String message) {
        mutex.lock();
        try {
            turns.heard(message);
        } finally {
            mutex.unlock();
        }
    }
}
