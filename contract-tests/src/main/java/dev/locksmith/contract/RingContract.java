package dev.locksmith.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The ring between processes on the Redis under test: while the reentrant lock is held, the
 * processes waiting for it form a ring in Redis, and a release offers the lock to the first of
 * them that still listens, which nobody else may take meanwhile. Proved as users see it, with one
 * {@link LockManager} per process sharing one Redis: processes take turns with no lost update and
 * never two holders; a process that closed while it waited is skipped; and an offer to a process
 * whose waiter gave up is passed on to the next, within the command timeout.
 *
 * <pre>{@code
 * class OurRedisRingContractTest extends RingContract {
 *     @Override
 *     protected RedisUnderTest redis() {
 *         return new StagingRedis();
 *     }
 * }
 * }</pre>
 */
public abstract class RingContract extends StoreContract {

    @Test
    void processesTakeTurnsWithNoLostUpdateAndNeverTwoHolders() throws Exception {
        List<LockManager> processes = List.of(manager(), manager(), manager());
        List<DistributedLock> locks = new ArrayList<>();
        for (LockManager process : processes) {
            for (int t = 0; t < 2; t++) {
                locks.add(process.getLock("turns"));
            }
        }
        int cyclesEach = 25;

        ContendedCycles cycles = contendedCycles(locks, cyclesEach);

        assertThat(cycles.updates()).as("no lost update").isEqualTo(locks.size() * cyclesEach);
        assertThat(cycles.tokens()).as("fencing tokens strictly increase").isSorted().doesNotHaveDuplicates();
        // The last release may have offered the lock to a process whose threads are all done: it
        // stands until that process declines it or the releaser passes it on, a command timeout at most.
        Await.until("no offer stands once all are done", commandTimeout().plusSeconds(1),
                () -> processes.get(0).describe("turns").offer().isEmpty());
    }

    @Test
    void aProcessThatClosedWhileItWaitedIsSkipped() throws Exception {
        DistributedLock holder = manager().getLock("departed");
        LockManager departing = manager();
        LockManager staying = manager();
        holder.lock();
        Future<Boolean> departingWaiter = inOtherThread(() -> departing.getLock("departed").tryLock(30, TimeUnit.SECONDS));
        awaitListening("departed", 1);
        Future<Long> stayingWaiter = inOtherThread(() -> acquiredAfter(staying.getLock("departed")));
        awaitListening("departed", 2);

        departing.close();
        assertThatThrownBy(() -> departingWaiter.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(IllegalStateException.class);
        long releasedAt = System.nanoTime();
        holder.unlock();

        long tookMillis = TimeUnit.NANOSECONDS.toMillis(stayingWaiter.get(30, TimeUnit.SECONDS) - releasedAt);
        assertThat(tookMillis).as("the process still waiting got the lock, without waiting for the closed one")
                .isLessThan(commandTimeout().toMillis());
    }

    @Test
    void anOfferToAProcessWhoseWaiterGaveUpIsPassedOn() throws Exception {
        DistributedLock holder = manager().getLock("passed-on");
        LockManager impatient = manager();
        LockManager patient = manager();
        holder.lock();
        boolean impatientGotIt = impatient.getLock("passed-on").tryLock(300, TimeUnit.MILLISECONDS);
        Future<Long> patientWaiter = inOtherThread(() -> acquiredAfter(patient.getLock("passed-on")));
        awaitListening("passed-on", 2);

        long releasedAt = System.nanoTime();
        holder.unlock();

        assertThat(impatientGotIt).isFalse();
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(patientWaiter.get(30, TimeUnit.SECONDS) - releasedAt);
        assertThat(tookMillis).as("the patient process got the lock, passed on within the command timeout")
                .isLessThan(commandTimeout().plus(Duration.ofSeconds(1)).toMillis());
        DistributedLock later = impatient.getLock("passed-on");
        assertThat(later.tryLock(5, TimeUnit.SECONDS)).as("the impatient process may take it later").isTrue();
        later.unlock();
    }

    /**
     * Takes {@code lock} (waiting up to 30 s), releases it, and says when it got it.
     *
     * @return {@link System#nanoTime()} when it was acquired
     */
    private static long acquiredAfter(DistributedLock lock) throws InterruptedException {
        assertThat(lock.tryLock(30, TimeUnit.SECONDS)).as("acquired within 30 s").isTrue();
        long at = System.nanoTime();
        lock.unlock();
        return at;
    }
}
