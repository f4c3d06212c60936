package dev.locksmith.jta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.arjuna.ats.jta.cdi.TransactionExtension;
import dev.locksmith.CallOptions;
import dev.locksmith.DistributedLock;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.Locked;
import dev.locksmith.Locksmith;
import dev.locksmith.internal.manager.ConnectingLockManager;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.RedisFaults;
import dev.locksmith.testing.InMemoryNaming;
import dev.locksmith.testing.JavaProcess;
import dev.locksmith.testing.LogCapture;
import dev.locksmith.testing.PausableScheduler;
import dev.locksmith.testing.QuietXaResource;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.RedisConfigExtension;
import dev.locksmith.testing.Transactions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.Status;
import jakarta.transaction.Transactional;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import javax.transaction.xa.XAException;
import javax.transaction.xa.Xid;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.jboss.weld.proxy.WeldClientProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code @Locked} and {@code callWithLock} inside JTA transactions of a real transaction manager
 * (Narayana): the lock is held until the transaction has completed, whichever way and on
 * whichever thread it completes, and a lock lost before commit fails the commit.
 */
@EnableWeld
class ReleaseAfterCompletionTest {
    private static final long LEASE_MILLIS = 600;

    @RegisterExtension
    @Order(1)
    static final RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    @Order(2)
    static final RedisConfigExtension config = new RedisConfigExtension(redis,
            "locksmith.lease-time", LEASE_MILLIS + "ms");


    @Inject
    LockManager locks;
    @Inject
    Stock stock;
    @Inject
    Transfers transfers;

    private final TransactionManager transactions = Transactions.manager();
    private final PausableScheduler watchdog = new PausableScheduler();

    // The container starts before @BeforeEach, and the manager with it: the server's names are bound first.
    @WeldSetup
    WeldInitiator weld = WeldInitiator.from(bindTheServersNames(watchdog).weld(Stock.class, Transfers.class)
            .addExtension(new TransactionExtension())).build();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private LockManager otherJvm;

    /**
     * Binds the transaction registry, and the watchdog's scheduler as a server's managed one would be
     * bound (a test can stop its ticks).
     */
    private static ContainersWithServerNames bindTheServersNames(PausableScheduler watchdog) {
        Transactions.bindInJndi();
        InMemoryNaming.bind("java:comp/DefaultManagedScheduledExecutorService", watchdog);
        return CdiContainers::weld;
    }

    /** Makes the test's container once the server's names are bound. */
    @FunctionalInterface
    private interface ContainersWithServerNames {
        org.jboss.weld.environment.se.Weld weld(Class<?>... beanClasses);
    }

    @BeforeEach
    void startTheOtherJvm() {
        otherJvm = Locksmith.builder().redisUri(redis.uri()).build();
    }

    @AfterEach
    void cleanUp() throws Exception {
        Transactions.rollBackLeftovers();
        transactions.setTransactionTimeout(0);
        threads.shutdownNow();
        otherJvm.close();
        InMemoryNaming.clear();
        watchdog.shutdownNow();
    }

    private boolean anotherThreadCanLock(String name) throws Exception {
        return threads.submit(() -> {
            DistributedLock lock = locks.getLock(name);
            boolean acquired = lock.tryLock();
            if (acquired) {
                lock.unlock();
            }
            return acquired;
        }).get(30, TimeUnit.SECONDS);
    }

    private boolean otherJvmCanLock(String name) {
        DistributedLock lock = otherJvm.getLock(name);
        boolean acquired = lock.tryLock();
        if (acquired) {
            lock.unlock();
        }
        return acquired;
    }

    private DefaultLockManager engine() {
        return ((ConnectingLockManager) ((WeldClientProxy) locks).getMetadata().getContextualInstance()).connected();
    }

    @Test
    void aMinimumHoldOutlastingTheCommitKeepsTheLockAfterItAndOneEndingBeforeDoesNot() throws Exception {
        Duration minHold = Duration.ofMillis(1_500);
        CallOptions job = CallOptions.waitingUpTo(Duration.ZERO).minHold(minHold).skipWhenHeld();
        long started = System.nanoTime();
        transactions.begin();
        locks.callWithLock("settlement", job, () -> true);
        boolean heldBeforeCommit = !otherJvmCanLock("settlement");
        transactions.commit();

        boolean keptAfterCommit = !otherJvmCanLock("settlement");
        String mode = otherJvm.describe("settlement").holders().get(0).mode();
        Await.until("the minimum hold passed", Duration.ofSeconds(5), () -> otherJvmCanLock("settlement"));

        assertThat(heldBeforeCommit).isTrue();
        assertThat(keptAfterCommit).as("kept after the commit for the rest of the minimum hold").isTrue();
        assertThat(mode).isEqualTo("kept");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(minHold);

        transactions.begin();
        locks.callWithLock("short-hold", CallOptions.waitingUpTo(Duration.ZERO).minHold(Duration.ofMillis(200)),
                () -> true);
        Thread.sleep(300); // a commit that outlasts the minimum hold
        transactions.commit();

        assertThat(otherJvmCanLock("short-hold")).as("released at once after a commit later than the minimum hold")
                .isTrue();
    }

    @Test
    void theLockIsHeldAfterTheMethodReturnsUntilTheTransactionHasCommitted() throws Exception {
        List<String> seenByOthers = new CopyOnWriteArrayList<>();
        transactions.begin();
        transactions.getTransaction().registerSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                seenByOthers.add("before commit: locked=" + otherJvm.getLock("stock:1").isLocked());
            }

            @Override
            public void afterCompletion(int status) {
                seenByOthers.add("after commit: locked=" + otherJvm.getLock("stock:1").isLocked());
            }
        });

        stock.reserve("1", () -> true);

        assertThat(anotherThreadCanLock("stock:1")).as("another thread, after the method returned").isFalse();
        assertThat(otherJvmCanLock("stock:1")).as("another manager, after the method returned").isFalse();
        transactions.commit();
        assertThat(seenByOthers).containsExactly("before commit: locked=true", "after commit: locked=false");
        assertThat(otherJvmCanLock("stock:1")).isTrue();
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    @Test
    void anotherJvmCannotAcquireBetweenMethodExitAndCommit() throws Exception {
        transactions.begin();
        stock.reserve("2", () -> true);

        try (JavaProcess between = JavaProcess.start(LockProbe.class, redis.uri(), "stock:2")) {
            assertThat(between.awaitLine("RESULT", Duration.ofSeconds(60))).isEqualTo("RESULT BUSY");
        }
        transactions.commit();

        try (JavaProcess after = JavaProcess.start(LockProbe.class, redis.uri(), "stock:2")) {
            assertThat(after.awaitLine("RESULT", Duration.ofSeconds(60))).isEqualTo("RESULT ACQUIRED");
        }
    }

    @Test
    void theLockIsReleasedAfterRollback() throws Exception {
        transactions.begin();
        stock.reserve("3", () -> true);
        assertThat(otherJvmCanLock("stock:3")).isFalse();

        transactions.rollback();

        assertThat(otherJvmCanLock("stock:3")).isTrue();
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    @Test
    void aMethodThatThrowsInsideTheTransactionIsReleasedWhenTheTransactionRollsBack() throws Exception {
        transactions.begin();
        Throwable failure = catchThrowable(() -> stock.reserve("4", () -> {
            throw new IllegalStateException("sold out");
        }));
        assertThat(failure).hasMessage("sold out");
        assertThat(otherJvmCanLock("stock:4")).as("still held: the transaction is not over").isFalse();

        transactions.rollback();

        assertThat(otherJvmCanLock("stock:4")).isTrue();
    }

    @Test
    void aLeaseLostBeforeCommitFailsTheCommitNamingTheLockAndLeavesNothingHeld() throws Exception {
        transactions.begin();
        stock.reserve("5", () -> true);
        watchdog.pause();
        DistributedLock taker = otherJvm.getLock("stock:5");
        assertThat(taker.tryLock(LEASE_MILLIS * 10, TimeUnit.MILLISECONDS)).as("the lease ran out").isTrue();

        Throwable failure = catchThrowable(transactions::commit);

        watchdog.resume();
        assertThat(failure).isInstanceOf(RollbackException.class);
        assertThat(causes(failure)).contains("'stock:5'").contains("lost before the transaction committed");
        assertThat(engine().statistics().toString()).contains("holds=0");
        assertThat(taker.isHeldByCurrentThread()).as("the new holder keeps its lock").isTrue();
        taker.unlock();
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    @Test
    void aReleaseAfterCommitThatRedisRefusesFreesTheLockWithinOneLease() throws Exception {
        AtomicReference<AutoCloseable> busy = new AtomicReference<>();
        transactions.begin();
        stock.reserve("9", () -> true);
        // Commits between the check before completion and the release after it: Redis answers BUSY then.
        transactions.getTransaction().enlistResource(new CommittingResource(() -> busy.set(RedisFaults.busy(redis.node()))));

        transactions.commit();

        assertThat(engine().statistics().holds()).as("holds kept after the failed release").isZero();
        assertThat(engine().statistics().renewed()).as("leases still renewed").isZero();
        busy.get().close();
        long freedWithin = System.nanoTime();
        assertThat(otherJvm.getLock("stock:9").tryLock(LEASE_MILLIS + 2_000, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - freedWithin)).isLessThan(Duration.ofMillis(LEASE_MILLIS + 1_000));
        otherJvm.getLock("stock:9").unlock();
    }

    @Test
    void nestedUsesWhoseReleasesRedisRefusesAfterCommitStillFreeTheLockWithinOneLease() throws Exception {
        AtomicReference<AutoCloseable> busy = new AtomicReference<>();
        try (LogCapture logs = LogCapture.start()) {
            transactions.begin();
            stock.reserveTwice("12", () -> true); // two deferred releases of one hold: a count-down, then the last
            transactions.getTransaction().enlistResource(new CommittingResource(() -> busy.set(RedisFaults.busy(redis.node()))));

            transactions.commit();

            assertThat(engine().statistics().holds()).as("holds kept after the failed releases").isZero();
            assertThat(engine().statistics().renewed()).as("leases still renewed").isZero();
            assertThat(logs.messages()).anyMatch(line -> line.contains("Could not release lock 'stock:12'")
                    && line.contains("the release still counted"));
            assertThat(logs.messages()).anyMatch(line -> line.contains("Could not release lock 'stock:12'")
                    && line.contains("frees itself when its lease runs out"));
        }
        busy.get().close();
        long freedWithin = System.nanoTime();
        assertThat(otherJvm.getLock("stock:12").tryLock(LEASE_MILLIS + 2_000, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - freedWithin)).isLessThan(Duration.ofMillis(LEASE_MILLIS + 1_000));
        otherJvm.getLock("stock:12").unlock();
    }

    /**
     * A resource of the transaction whose commit runs an action: the moment between the check
     * before completion and the release after it.
     */
    private record CommittingResource(ThrowingRunnable onCommit) implements QuietXaResource {
        @Override
        public void commit(Xid xid, boolean onePhase) throws XAException {
            try {
                onCommit.run();
            } catch (Exception e) {
                throw new XAException(e.toString());
            }
        }
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void aLockForceUnlockedBeforeCommitFailsTheCommit() throws Exception {
        transactions.begin();
        stock.reserve("6", () -> true);
        assertThat(otherJvm.getLock("stock:6").forceUnlock()).isTrue();

        Throwable failure = catchThrowable(transactions::commit);

        assertThat(failure).isInstanceOf(RollbackException.class);
        assertThat(causes(failure)).contains("'stock:6'");
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    @Test
    void aTransactionCompletedByItsTimeoutOnAnotherThreadStillReleases() throws Exception {
        transactions.setTransactionTimeout(1);
        transactions.begin();
        stock.reserve("7", () -> true);

        // This thread neither commits nor rolls back: only the transaction reaper's rollback,
        // on its own thread, can free the lock for the other manager.
        boolean acquired = otherJvm.getLock("stock:7").tryLock(30, TimeUnit.SECONDS);

        assertThat(acquired).isTrue();
        otherJvm.getLock("stock:7").unlock();
        assertThat(catchThrowable(transactions::commit)).isInstanceOf(RollbackException.class);
        assertThat(engine().statistics().toString()).contains("holds=0");
    }

    @Test
    void reentrantUsesInOneTransactionReleaseTogetherAfterCompletion() throws Exception {
        transactions.begin();
        stock.reserve("8", () -> true);
        int nestedHolds = stock.reserveTwice("8", () -> locks.getLock("stock:8").getHoldCount());
        assertThat(nestedHolds).as("1 deferred + 2 nested").isEqualTo(3);
        assertThat(locks.getLock("stock:8").getHoldCount()).as("every use deferred").isEqualTo(3);

        transactions.commit();

        assertThat(locks.getLock("stock:8").getHoldCount()).isZero();
        assertThat(otherJvmCanLock("stock:8")).isTrue();
    }

    @Test
    void callWithLockInsideATransactionAlsoReleasesAfterCompletion() throws Exception {
        transactions.begin();
        String result = locks.callWithLock("report", Duration.ofSeconds(5), () -> "done");
        assertThat(result).isEqualTo("done");
        assertThat(otherJvmCanLock("report")).isFalse();

        transactions.commit();

        assertThat(otherJvmCanLock("report")).isTrue();
    }

    @Test
    void withoutATransactionTheLockIsReleasedAtMethodExit() throws Exception {
        stock.reserve("9", () -> true);

        assertThat(otherJvmCanLock("stock:9")).isTrue();
    }

    @Test
    void aLockAroundAMethodThatStartsItsOwnTransactionIsReleasedOnlyAfterThatCommit() throws Exception {
        List<String> seenAtCommit = new CopyOnWriteArrayList<>();

        transfers.transfer("acct-1", () -> {
            transactions.getTransaction().registerSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    seenAtCommit.add("locked after commit=" + otherJvm.getLock("account:acct-1").isLocked());
                }
            });
            return true;
        });

        assertThat(seenAtCommit).containsExactly("locked after commit=true");
        assertThat(otherJvmCanLock("account:acct-1")).isTrue();
    }

    @Test
    void aLockLostBeforeTheCommitOfATransactionStartedInsideTheLockedCallRollsItBack() throws Exception {
        List<Integer> outcome = new CopyOnWriteArrayList<>();

        assertThatThrownBy(() -> transfers.transfer("acct-9", () -> {
            transactions.getTransaction().registerSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    outcome.add(status);
                }
            });
            assertThat(otherJvm.getLock("account:acct-9").forceUnlock()).isTrue();
            return true;
        })).satisfies(failure -> assertThat(causes(failure)).contains(LockLostException.class.getName())
                .contains("'account:acct-9'").contains("lost before the transaction committed"));

        assertThat(outcome).containsExactly(Status.STATUS_ROLLEDBACK);
        assertThat(otherJvmCanLock("account:acct-9")).isTrue();
    }

    @Test
    void theRegistryIsLookedUpDuringTheCallAndNotNeededAtCompletion() throws Exception {
        transactions.begin();
        stock.reserve("10", () -> true);
        assertThat(InMemoryNaming.lookups(Transactions.REGISTRY_JNDI_NAME)).as("looked up during the call").isPositive();
        transactions.getTransaction().registerSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                // Like servers that run completion without the component's JNDI context.
                InMemoryNaming.clear();
            }

            @Override
            public void afterCompletion(int status) {
            }
        });

        transactions.commit();

        assertThat(InMemoryNaming.lookups(Transactions.REGISTRY_JNDI_NAME)).as("no lookup at completion").isZero();
        assertThat(otherJvmCanLock("stock:10")).isTrue();
    }

    @Test
    void aLockLostBeforeTheRollbackIsLoggedWithItsNameWithoutClaimingItIsStillOurs() throws Exception {
        try (LogCapture logs = LogCapture.start()) {
            transactions.begin();
            stock.reserve("11", () -> true);
            otherJvm.getLock("stock:11").forceUnlock();

            Throwable failure = catchThrowable(transactions::rollback);

            assertThat(failure).isNull();
            assertThat(logs.messages()).anyMatch(line -> line.contains("INFO")
                    && line.contains("Lock 'stock:11' was lost before the transaction rolled back"));
            assertThat(logs.messages()).as("not a failed release: the lock is no longer ours to release")
                    .noneMatch(line -> line.contains("Could not release lock 'stock:11'"));
        }
    }

    private static String causes(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            text.append(t).append('\n');
            for (Throwable suppressed : t.getSuppressed()) {
                text.append(suppressed).append('\n');
            }
        }
        return text.toString();
    }

    @ApplicationScoped
    static class Stock {
        @Inject
        Stock self;

        @Locked("stock:{sku}")
        public <T> T reserve(String sku, Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked("stock:{sku}")
        public <T> T reserveTwice(String sku, Callable<T> inside) throws Exception {
            return self.reserve(sku, inside);
        }
    }

    @ApplicationScoped
    static class Transfers {
        @Locked("account:{account}")
        @Transactional(Transactional.TxType.REQUIRES_NEW)
        public <T> T transfer(String account, Callable<T> inside) throws Exception {
            return inside.call();
        }
    }
}
