package dev.locksmith.internal.lock;

import dev.locksmith.internal.lock.call.GuardedCall;
import dev.locksmith.internal.lock.call.UnlockDeferral;
import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.IndependentMasters;
import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RedisNode;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.SentinelRedis;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A job that returns before its minimum hold keeps its lock for the rest of it, and now ends
 * sooner than the lease its waiters were told: every waiter a release would wake is woken to
 * learn that, in every mode (one master, a master with replicas behind Sentinel, a cluster, and
 * RedLock), for the reentrant and the fair lock. Without the
 * wake-up a waiter in another process sleeps until the lease it saw ran out.
 */
class KeptLockWakeUpTest {
    private static final Duration LEASE = Duration.ofSeconds(9);
    private static final Duration MIN_HOLD = Duration.ofMillis(1_500);

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();
    private static IndependentMasters masters;
    private static RedisCluster cluster;
    private static SentinelRedis sentinel;

    @BeforeAll
    static void startMasters() {
        masters = IndependentMasters.start(3);
        cluster = RedisCluster.start();
        sentinel = SentinelRedis.start();
    }

    @AfterAll
    static void stopMasters() {
        masters.close();
        cluster.close();
        sentinel.close();
    }

    @SuppressWarnings("unchecked")
    @ParameterizedTest(name = "{0}, {1} lock")
    @CsvSource({"STANDALONE, reentrant", "STANDALONE, fair", "REDLOCK, reentrant", "REDLOCK, fair",
            "SENTINEL, reentrant", "SENTINEL, fair", "CLUSTER, reentrant", "CLUSTER, fair"})
    void aKeptLockWakesItsWaitersWhenItsMinimumHoldEndsNotWhenTheLeaseTheySawEnds(RedisMode mode, String kind)
            throws Exception {
        String name = "kept-" + mode + "-" + kind;
        Function<LockManager, DistributedLock> lockOf = kind.equals("fair")
                ? locks -> locks.getFairLock(name) : locks -> locks.getLock(name);
        try (LockManager server1 = manager(mode); LockManager server2 = manager(mode)) {
            CompletableFuture<Long>[] acquiredAt = new CompletableFuture[1];
            long lockedAt = System.nanoTime();
            GuardedCall job = new GuardedCall(lockOf.apply(server1), Duration.ofSeconds(5), null, MIN_HOLD, false,
                    "a job", null);

            job.call(UnlockDeferral.NONE, () -> {
                acquiredAt[0] = waitInAnotherProcess(lockOf.apply(server2));
                Await.until("the other process waits for the lock", Duration.ofSeconds(10), waits(mode, kind, name));
                return null; // before the minimum hold: the lock is kept, by nobody
            });
            long returnedAt = System.nanoTime();

            long tookMillis = TimeUnit.NANOSECONDS.toMillis(acquiredAt[0].get(20, TimeUnit.SECONDS) - lockedAt);
            assertThat(returnedAt - lockedAt).as("the job returned before its minimum hold").isLessThan(MIN_HOLD.toNanos());
            assertThat(tookMillis).as("the waiter took the lock when the minimum hold ended, not its lease")
                    .isLessThan(MIN_HOLD.toMillis() + 1_000);
        }
    }

    private static LockManager manager(RedisMode mode) {
        String uri = switch (mode) {
            case REDLOCK -> masters.uris();
            case CLUSTER -> cluster.seedsUri();
            case SENTINEL -> sentinel.sentinelUri();
            default -> redis.uri();
        };
        return Locksmith.builder().mode(mode).redisUri(uri)
                .leaseTime(LEASE).build();
    }

    /**
     * Whether Redis has the waiter's request to be woken: in the fair queue, or marked on the lock.
     */
    private static BooleanSupplier waits(RedisMode mode, String kind, String name) {
        List<? extends RedisNode> nodes = switch (mode) {
            case REDLOCK -> masters.nodes();
            case CLUSTER -> List.of(cluster.masterOfSlot(cluster.slotOf("locksmith:{" + name + "}")));
            case SENTINEL -> List.of(sentinel.master());
            default -> List.of(redis.node());
        };
        // 'W': a waiter of another process joined the ring or asked to be woken by the release.
        return () -> nodes.stream().allMatch(node -> kind.equals("fair")
                ? !node.command("LLEN", "locksmith:{" + name + "}:queue").equals("0")
                : String.valueOf(node.command("GET", "locksmith:{" + name + "}")).startsWith("W"));
    }

    private static CompletableFuture<Long> waitInAnotherProcess(DistributedLock lock) {
        CompletableFuture<Long> acquiredAt = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                if (lock.tryLock(20, TimeUnit.SECONDS)) {
                    acquiredAt.complete(System.nanoTime());
                    lock.unlock();
                } else {
                    acquiredAt.completeExceptionally(new AssertionError("not acquired within 20 s"));
                }
            } catch (Throwable e) {
                acquiredAt.completeExceptionally(e);
            }
        }, "waiter in another process");
        thread.start();
        return acquiredAt;
    }
}
