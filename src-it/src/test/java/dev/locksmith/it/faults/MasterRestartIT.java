package dev.locksmith.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LocalRedisServer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A master that restarts empty while a lock is held forgets the lock: the holder must learn it,
 * and a waiter must get in with a larger fencing token.
 */
@Isolated // its timings (failovers, leases, a timed random run) are measured with nothing else running
class MasterRestartIT {

    @Test
    void aMasterRestartedEmptyTellsTheHolderAndLetsAWaiterInWithALargerToken() throws Exception {
        Duration lease = Duration.ofSeconds(2);
        try (LocalRedisServer master = LocalRedisServer.start();
             DefaultLockManager holderSide = (DefaultLockManager) Locksmith.builder().redisUri(master.uri())
                     .leaseTime(lease).commandTimeout(Duration.ofMillis(500)).build();
             LockManager waiterSide = Locksmith.builder().redisUri(master.uri()).leaseTime(lease)
                     .commandTimeout(Duration.ofMillis(500)).build()) {
            DistributedLock held = holderSide.getLock("invoice");
            held.lock();
            long holderToken = held.fencingToken();
            CompletableFuture<Long> waiterToken = CompletableFuture.supplyAsync(() -> {
                DistributedLock lock = waiterSide.getLock("invoice");
                try {
                    if (!lock.tryLock(30, TimeUnit.SECONDS)) {
                        throw new AssertionError("the waiter never got the lock");
                    }
                    long token = lock.fencingToken();
                    lock.unlock();
                    return token;
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });

            master.kill();
            master.restart();

            Await.until("the holder's watchdog noticed the loss", Duration.ofSeconds(20),
                    () -> holderSide.statistics().renewed() == 0);
            assertThat(waiterToken.get(30, TimeUnit.SECONDS)).as("fencing rejects the stale holder").isGreaterThan(holderToken);
            assertThatThrownBy(held::unlock).isInstanceOf(LockLostException.class);
        }
    }
}
