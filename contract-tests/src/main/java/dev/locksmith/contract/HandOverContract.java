package dev.locksmith.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The hand-over between threads of one process (one {@link LockManager}) on the Redis under test:
 * a release of the reentrant lock passes it straight to a thread of the same manager that waits
 * for it, with a new fencing token. Proved as users see it: no lost update and never two holders
 * among many threads, tokens that only increase, a waiter behind a holder of its own process that
 * hears a forced unlock from elsewhere or the holder's lease running out, and a close that wakes
 * every waiting thread.
 *
 * <pre>{@code
 * class OurRedisHandOverContractTest extends HandOverContract {
 *     @Override
 *     protected RedisUnderTest redis() {
 *         return new StagingRedis();
 *     }
 * }
 * }</pre>
 */
public abstract class HandOverContract extends StoreContract {

    @Test
    void threadsOfOneProcessPassTheLockWithoutLostUpdatesOrTwoHolders() throws Exception {
        LockManager locks = manager();
        DistributedLock lock = locks.getLock("passed");
        int threads = 4;
        int cyclesEach = 60;

        ContendedCycles cycles = contendedCycles(Collections.nCopies(threads, lock), cyclesEach);

        assertThat(cycles.updates()).as("no lost update").isEqualTo(threads * cyclesEach);
        assertThat(cycles.tokens()).as("fencing tokens strictly increase, hand-over or not").isSorted().doesNotHaveDuplicates();
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void aWaiterBehindAHolderOfItsOwnProcessHearsAForcedUnlockElsewhere() throws Exception {
        LockManager locks = manager();
        DistributedLock lock = locks.getLock("forced");
        lock.lock();
        Future<Long> waiter = inOtherThread(() -> {
            assertThat(lock.tryLock(10, TimeUnit.SECONDS)).as("the waiter got the lock").isTrue();
            long token = lock.fencingToken();
            lock.unlock();
            return token;
        });
        awaitListening("forced", 1);

        assertThat(manager().getLock("forced").forceUnlock()).isTrue();

        assertThat(waiter.get(10, TimeUnit.SECONDS)).as("the waiter's token").isPositive();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
    }

    @Test
    void aHolderWhoseLeaseRunsOutLetsTheThreadBehindItIn() throws Exception {
        LockManager locks = manager();
        DistributedLock lock = locks.getLock("expiring");
        lock.lock(300, TimeUnit.MILLISECONDS);
        long lostToken = lock.fencingToken();

        Future<Long> waiter = inOtherThread(() -> {
            assertThat(lock.tryLock(10, TimeUnit.SECONDS)).as("the waiter got the lock").isTrue();
            long token = lock.fencingToken();
            lock.unlock();
            return token;
        });

        assertThat(waiter.get(10, TimeUnit.SECONDS)).as("the waiter's token").isGreaterThan(lostToken);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class).hasMessageContaining("expiring");
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void closingTheManagerWakesEveryThreadWaitingInIt() throws Exception {
        LockManager locks = manager();
        DistributedLock lock = locks.getLock("closing");
        lock.lock();
        List<Future<Void>> waiters = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            waiters.add(inOtherThread(() -> {
                lock.lock();
                return null;
            }));
        }
        awaitListening("closing", 1);

        locks.close();

        for (Future<Void> waiter : waiters) {
            assertThatThrownBy(() -> waiter.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class).cause()
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        }
        DistributedLock after = manager().getLock("closing");
        assertThat(after.tryLock()).as("the close released the holder's lock").isTrue();
        after.unlock();
    }
}
