package dev.locksmith.it.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RespClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Locks spread over every slot of a three-master cluster, one master killed and its replica
 * promoted while locks are held and waited on.
 */
@Isolated // its timings (failovers, leases, a timed random run) are measured with nothing else running
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
            awaitClientFollowsFailover(holderSide, contested);

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

    @Test
    void aWaiterHearsTheReleaseOnTheShardPromotedByAFailover() throws Exception {
        Duration lease = Duration.ofSeconds(30);
        try (RedisCluster cluster = RedisCluster.start();
             LockManager holderSide = Locksmith.builder().mode(RedisMode.CLUSTER).redisUri(cluster.seedsUri())
                     .leaseTime(lease).commandTimeout(Duration.ofSeconds(2)).build();
             LockManager waiterSide = Locksmith.builder().mode(RedisMode.CLUSTER).redisUri(cluster.seedsUri())
                     .leaseTime(lease).commandTimeout(Duration.ofSeconds(2)).build()) {
            String name = "invoice-42";
            DistributedLock held = holderSide.getLock(name);
            held.lock();
            CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
                DistributedLock lock = waiterSide.getLock(name);
                try {
                    if (!lock.tryLock(90, TimeUnit.SECONDS)) {
                        throw new AssertionError("the waiter never got the lock");
                    }
                    long at = System.nanoTime();
                    lock.unlock();
                    return at;
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            Await.until("the waiter listens on the lock's shard", Duration.ofSeconds(20), () -> shardSubscribers(
                    cluster, "locksmith:{" + name + "}:released") == 1);

            cluster.failoverKillingMasterOf(cluster.slotOf("locksmith:{" + name + "}"));
            Await.until("the waiter's subscription moved to the promoted master", Duration.ofSeconds(30),
                    () -> shardSubscribers(cluster, "locksmith:{" + name + "}:released") == 1);
            awaitClientFollowsFailover(holderSide, name);
            long releasedAt = System.nanoTime();
            try {
                held.unlock();
            } catch (LockLostException e) {
                // The replica had not received the lock when its master died: the waiter may already be in.
            }

            long woken = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(90, TimeUnit.SECONDS) - releasedAt);
            assertThat(woken).as("woken by the release message, not by the 30 s lease").isLessThan(5_000);
        }
    }

    private static void awaitClientFollowsFailover(LockManager locks, String name) {
        Await.until("the client found the promoted master", Duration.ofSeconds(30), () -> {
            try {
                locks.getLock(name).isLocked();
                return true;
            } catch (LockException e) {
                return false; // still talking to the dead master
            }
        });
    }

    private static long shardSubscribers(RedisCluster cluster, String channel) {
        LocalRedisServer master;
        try {
            master = cluster.masterOfSlot(cluster.slotOf(channel));
        } catch (RuntimeException e) {
            return -1; // the cluster is still electing
        }
        List<?> reply = (List<?>) RespClient.call(master.port(), "PUBSUB", "SHARDNUMSUB", channel);
        return Long.parseLong(reply.get(1).toString());
    }
}
