package dev.locksmith.it.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Locks spread over every slot of a three-master cluster, one master killed and its replica
 * promoted while locks are held and waited on.
 */
class ClusterFailoverIT {

    @Test
    void locksAcrossSlotsSurviveAMasterFailoverAndWaitersGetIn() throws Exception {
        Duration lease = Duration.ofSeconds(3);
        try (RedisCluster cluster = RedisCluster.start();
             LockManager holderSide = Locksmith.builder().mode(RedisMode.CLUSTER).redisUri(cluster.seedsUri())
                     .leaseTime(lease).commandTimeout(Duration.ofSeconds(2)).build();
             LockManager waiterSide = Locksmith.builder().mode(RedisMode.CLUSTER).redisUri(cluster.seedsUri())
                     .leaseTime(lease).commandTimeout(Duration.ofSeconds(2)).build()) {
            List<DistributedLock> held = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                DistributedLock lock = holderSide.getLock("order-" + i);
                lock.lock();
                held.add(lock);
            }
            String contested = "order-7";
            CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
                DistributedLock lock = waiterSide.getLock(contested);
                try {
                    boolean acquired = lock.tryLock(60, TimeUnit.SECONDS);
                    if (acquired) {
                        lock.unlock();
                    }
                    return acquired;
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });

            cluster.failoverKillingMasterOf(cluster.slotOf("locksmith:{" + contested + "}"));
            Await.until("the client found the promoted master", Duration.ofSeconds(30), () -> {
                try {
                    holderSide.getLock(contested).isLocked();
                    return true;
                } catch (LockException e) {
                    return false; // still talking to the dead master
                }
            });

            assertThat(waiterSide.getLock("order-30").tryLock()).as("held locks stay held").isFalse();
            int lost = 0;
            for (DistributedLock lock : held) {
                try {
                    lock.unlock();
                } catch (LockLostException e) {
                    lost++; // a write the replica had not received when its master died
                }
            }
            assertThat(waiter.get(60, TimeUnit.SECONDS)).as("the waiter got in after the failover").isTrue();
            assertThat(lost).as("asynchronous replication on loopback loses little or nothing").isLessThan(60);
        }
    }
}
