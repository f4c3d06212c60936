package dev.locksmith.internal.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.internal.redis.RedisResources;
import dev.locksmith.internal.store.LockStore;
import dev.locksmith.internal.observe.LockObserver;
import dev.locksmith.internal.store.RedisReplies;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LocalRedisServer;
import dev.locksmith.testing.LogCapture;
import dev.locksmith.testing.ManualScheduler;
import dev.locksmith.testing.StallingProxy;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lease keeper, driven by a clock and a scheduler the test owns: when a hold counts as
 * confirmed, when an unreachable Redis makes it lost, how renewals are batched, and that a
 * renewal answered after a release is not taken for a loss.
 */
class LeaseKeeperTest {
    private static final Duration LEASE = Duration.ofSeconds(3);
    /** What a stalled call waits out; long enough for a connection's handshake on a loaded machine (200 ms was not). */
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

    private final ManualScheduler ticks = new ManualScheduler();
    private final AtomicLong clock = new AtomicLong();
    private LocalRedisServer server;
    private StallingProxy proxy;
    private RedisResources resources;
    private LockStore store;
    private LeaseKeeper leases;

    @BeforeEach
    void start() {
        server = LocalRedisServer.start();
        proxy = StallingProxy.inFrontOf(server);
        resources = RedisResources.create(null);
        store = LockStore.connectDeployment(resources, RedisMode.STANDALONE, List.of(RedisURI.create(proxy.uri())),
                COMMAND_TIMEOUT);
        leases = new LeaseKeeper(store, new RedisReplies(COMMAND_TIMEOUT, LockObserver.NONE), ticks, clock::get,
                LEASE, LockObserver.NONE);
    }

    @AfterEach
    void stop() {
        proxy.resume();
        leases.close();
        store.close();
        resources.close();
        ticks.shutdownNow();
        proxy.close();
        server.close();
    }

    private Hold heldSince(String name, long sentAtNanos) {
        String key = "locksmith:{" + name + "}";
        server.command("SET", key, "-owner|1|1|0|main", "PX", Long.toString(LEASE.toMillis()));
        Hold hold = new Hold(name, "lock '" + name + "'", new HoldKeys(key, key + ":released", "publish"), "owner",
                "owner", "", 1, LEASE.toMillis(), true, sentAtNanos);
        leases.granted(hold);
        return hold;
    }

    @Test
    void aHoldUnconfirmedForAWholeLeaseFromWhenItsAcquisitionWasSentIsLost() {
        try (LogCapture logs = LogCapture.start()) {
            Hold hold = heldSince("unreachable", 0);
            proxy.stall();

            clock.set(LEASE.toNanos() - 1);
            ticks.runPeriodicTasks();
            Await.until("the renewal failed", Duration.ofSeconds(5), () -> failedRenewals(logs) == 1);
            assertThat(hold.isLost()).as("one nanosecond short of a lease since the acquisition was sent").isFalse();

            clock.set(LEASE.toNanos());
            ticks.runPeriodicTasks();

            Await.until("a whole lease unconfirmed makes it lost", Duration.ofSeconds(5), hold::isLost);
            assertThat(leases.renewedCount()).isZero();
        }
    }

    @Test
    void aConfirmedRenewalRestartsTheLeaseFromWhenItWasSent() {
        try (LogCapture logs = LogCapture.start()) {
            Hold hold = heldSince("renewed", 0);
            clock.set(LEASE.toNanos() / 2);
            ticks.runPeriodicTasks();
            Await.until("renewed", Duration.ofSeconds(5), () -> hold.lastConfirmedNanos() == LEASE.toNanos() / 2);
            proxy.stall();

            clock.set(LEASE.toNanos() + LEASE.toNanos() / 2 - 1);
            ticks.runPeriodicTasks();
            Await.until("the renewal failed", Duration.ofSeconds(5), () -> failedRenewals(logs) == 1);

            assertThat(hold.isLost()).isFalse();
        }
    }

    @Test
    void confirmingBeforeACommitExtendsEveryHoldInCallsOfAtMost256Keys() {
        List<Hold> holds = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            holds.add(heldSince("batch-" + i, 0));
        }
        Hold gone = holds.get(599);
        server.command("DEL", gone.keys().lock());
        long callsBefore = scriptCalls();

        List<Hold> lost = leases.confirmAndExtend(holds);

        assertThat(scriptCalls() - callsBefore).as("600 holds, 256 per call").isEqualTo(3);
        assertThat(lost).containsExactly(gone);
        assertThat(Long.parseLong(server.command("PTTL", holds.get(0).keys().lock()))).isGreaterThan(2_000);
    }

    @Test
    void confirmingWhileRedisIsUnreachableFailsWithoutMarkingAnythingLost() {
        Hold hold = heldSince("offline", 0);
        proxy.stall();

        assertThatThrownBy(() -> leases.confirmAndExtend(List.of(hold))).isInstanceOf(LockException.class);
        assertThat(hold.isLost()).isFalse();
    }

    @Test
    void aRenewalAnsweredAfterTheReleaseIsNotTakenForALoss() throws Exception {
        ManualScheduler managerTicks = new ManualScheduler();
        ExecutorService owner = Executors.newSingleThreadExecutor();
        try (LockManager locks = Locksmith.builder().redisUri(server.uri()).watchdogScheduler(managerTicks).build();
             LogCapture logs = LogCapture.start()) {
            DistributedLock lock = locks.getLock("released");
            owner.submit((Runnable) lock::lock).get(5, TimeUnit.SECONDS);
            // Both the release and the renewal wait in Redis's queue; the release goes first.
            server.command("CLIENT", "PAUSE", "300", "WRITE");
            Future<?> unlocked = owner.submit((Runnable) lock::unlock);
            Await.until("the release is on its way", Duration.ofSeconds(5), () -> blockedClients() >= 1);
            managerTicks.runPeriodicTasks();

            unlocked.get(5, TimeUnit.SECONDS);
            // Answered on the same connection after the renewal: its callback has run by then.
            assertThat(locks.getLock("released").isLocked()).isFalse();

            assertThat(logs.messages()).noneMatch(line -> line.contains("Lost the"));
        } finally {
            owner.shutdownNow();
            managerTicks.shutdownNow();
        }
    }

    private static long failedRenewals(LogCapture logs) {
        return logs.messages().stream().filter(line -> line.contains("Renewing 1 lease(s) failed")).count();
    }

    private long blockedClients() {
        return Long.parseLong(server.info("clients").getOrDefault("blocked_clients", "0"));
    }

    private long scriptCalls() {
        String stats = server.command("INFO", "commandstats");
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:")) {
                return Long.parseLong(line.replaceAll("^[a-z_|]*:calls=(\\d+),.*", "$1"));
            }
        }
        return 0;
    }
}
