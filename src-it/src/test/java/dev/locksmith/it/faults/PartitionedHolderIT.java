package dev.locksmith.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.StallingProxy;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A holder cut off from Redis for longer than its lease (a network partition: silence on an
 * open socket) loses the lock; the next holder gets a larger fencing token and the stale holder
 * hears of its loss.
 */
@Isolated // its timings (failovers, leases, a timed random run) are measured with nothing else running
class PartitionedHolderIT {

    @Test
    void aHolderCutOffPastItsLeaseLosesTheLockToALargerToken() throws Exception {
        Duration lease = Duration.ofSeconds(1);
        try (LocalRedisServer redis = LocalRedisServer.start();
             StallingProxy network = StallingProxy.inFrontOf(redis);
             DefaultLockManager cutOff = (DefaultLockManager) Locksmith.builder().redisUri(network.uri())
                     .leaseTime(lease).commandTimeout(Duration.ofMillis(300)).build();
             LockManager healthy = Locksmith.builder().redisUri(redis.uri()).leaseTime(lease).build()) {
            DistributedLock stale = cutOff.getLock("ledger");
            stale.lock();
            long staleToken = stale.fencingToken();

            network.stall();
            DistributedLock next = healthy.getLock("ledger");
            boolean acquired = next.tryLock(10, TimeUnit.SECONDS);

            assertThat(acquired).isTrue();
            assertThat(next.fencingToken()).isGreaterThan(staleToken);
            Await.until("the cut-off holder's watchdog gave the lock up", Duration.ofSeconds(10),
                    () -> cutOff.statistics().renewed() == 0);
            assertThatThrownBy(stale::fencingToken).isInstanceOf(LockException.class);
            network.resume();
            assertThatThrownBy(stale::unlock).isInstanceOf(LockException.class);
            assertThat(next.isHeldByCurrentThread()).as("the stale holder's unlock took nothing away").isTrue();
            next.unlock();
        }
    }
}
