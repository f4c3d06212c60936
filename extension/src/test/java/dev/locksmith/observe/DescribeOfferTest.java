package dev.locksmith.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockHolder;
import dev.locksmith.LockInfo;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.LockRing;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.StallingProxy;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code LockManager.describe} while the reentrant lock or the write lock stands offered to one
 * waiting process: nobody holds it, and yet nobody else may take it. A third process's describe
 * names the process it is reserved for, since when and for how long at most, and, once the offer
 * was taken or passed on, the holder instead.
 *
 * <p>Each {@link LockManager} stands for one application server: H holds the lock and releases
 * it, C waits first in the ring, D (where there is one) second, and O only describes. C talks to
 * Redis through a {@link StallingProxy}: stalled, its connections stay open, so Redis counts C as
 * listening and offers it the lock, but C hears nothing, as a process frozen by a long GC pause
 * would, and the offer stands until C is resumed or H passes it on after its command timeout.
 */
class DescribeOfferTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    /** H's command timeout where the offer must stand while the test looks at it. */
    private static final Duration PATIENT_RELEASER = Duration.ofSeconds(10);
    /** H's command timeout where the test waits for H to pass the offer on. */
    private static final Duration WATCHFUL_RELEASER = Duration.ofSeconds(2);

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final ExecutorService threadOfC = Executors.newSingleThreadExecutor(named("C"));
    private final ExecutorService threadOfD = Executors.newSingleThreadExecutor(named("D"));

    @AfterEach
    void stopThreads() {
        threadOfC.shutdownNow();
        threadOfD.shutdownNow();
    }

    /**
     * H releases while frozen C is first in the ring: the lock stands offered to C. O's describe
     * shows no holder but the offer, with C's process, a since between the release and now, and a
     * reservation within the lease. Resumed, C takes the offer, and describe shows C as the holder
     * and no offer.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"reentrant", "write"})
    void aStandingOfferNamesTheProcessItIsReservedForUntilThatProcessTakesIt(String kind) throws Exception {
        String name = "offered-" + kind;
        try (StallingProxy proxy = StallingProxy.inFrontOf(redis.node());
             LockManager h = manager(redis.uri(), "releaser", PATIENT_RELEASER);
             LockManager c = manager(proxy.uri(), "frozen", PATIENT_RELEASER);
             LockManager o = manager(redis.uri(), "observer", PATIENT_RELEASER)) {
            DistributedLock held = lockOf(h, kind, name);
            held.lock();
            CompletableFuture<Void> cAcquired = acquireIn(threadOfC, lockOf(c, kind, name));
            String cId = LockRing.of(redis.node(), kind, name).awaitSize(1).get(0);
            assertThat(o.describe(name).holders()).extracting(LockHolder::process)
                    .singleElement().asString().endsWith("application releaser");

            proxy.stall();
            LockInfo offered;
            Instant releasedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            try {
                held.unlock();
                offered = o.describe(name);
            } finally {
                proxy.resume();
            }

            assertThat(offered.holders()).as("nobody holds it").isEmpty();
            assertThat(offered.isHeld()).isFalse();
            assertOfferedTo(offered, kind, cId, "application frozen", releasedAt, 0);
            cAcquired.get(20, TimeUnit.SECONDS);
            // C may hold the reentrant lock on hearing its grant, before its confirmation reaches Redis.
            Await.until("C's take reached Redis", Duration.ofSeconds(10), () -> o.describe(name).offer().isEmpty());
            LockInfo taken = o.describe(name);
            assertThat(taken.offer()).as("taken: no offer stands").isEmpty();
            assertThat(taken.holders()).singleElement().satisfies(holder -> {
                assertThat(holder.mode()).isEqualTo(mode(kind));
                assertThat(holder.owner()).startsWith(cId + ":");
                assertThat(holder.process()).endsWith("application frozen");
            });
            unlockIn(threadOfC, lockOf(c, kind, name));
        }
        assertNothingLeft();
    }

    /**
     * The same offer to frozen C, with D second in the ring: H passes the offer on after its
     * command timeout, D takes it at once, and describe shows D as the holder and no offer. C,
     * resumed, gets the lock after D.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"reentrant", "write"})
    void anOfferPassedOnFromAFrozenProcessIsReplacedByTheNextHolder(String kind) throws Exception {
        String name = "passed-on-" + kind;
        try (StallingProxy proxy = StallingProxy.inFrontOf(redis.node());
             LockManager h = manager(redis.uri(), "releaser", WATCHFUL_RELEASER);
             LockManager c = manager(proxy.uri(), "frozen", WATCHFUL_RELEASER);
             LockManager d = manager(redis.uri(), "next", WATCHFUL_RELEASER);
             LockManager o = manager(redis.uri(), "observer", WATCHFUL_RELEASER)) {
            DistributedLock held = lockOf(h, kind, name);
            held.lock();
            LockRing ring = LockRing.of(redis.node(), kind, name);
            CompletableFuture<Void> cAcquired = acquireIn(threadOfC, lockOf(c, kind, name));
            String cId = ring.awaitSize(1).get(0);
            CompletableFuture<Void> dAcquired = acquireIn(threadOfD, lockOf(d, kind, name));
            String dId = ring.awaitSize(2).get(1);
            assertThat(o.describe(name).offer()).as("held: no offer").isEmpty();

            proxy.stall();
            try {
                Instant releasedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
                held.unlock();
                assertOfferedTo(o.describe(name), kind, cId, "application frozen", releasedAt, 0);

                dAcquired.get(20, TimeUnit.SECONDS);
                // D may hold the reentrant lock on hearing its grant, before its confirmation reaches Redis.
                Await.until("D's take reached Redis", Duration.ofSeconds(10), () -> o.describe(name).offer().isEmpty());
                LockInfo passedOn = o.describe(name);
                assertThat(passedOn.offer()).as("passed on to D, who took it: no offer stands").isEmpty();
                assertThat(passedOn.holders()).singleElement().satisfies(holder -> {
                    assertThat(holder.mode()).isEqualTo(mode(kind));
                    assertThat(holder.owner()).startsWith(dId + ":");
                    assertThat(holder.process()).endsWith("application next");
                });
            } finally {
                proxy.resume();
            }

            ring.awaitContaining(cId);
            unlockIn(threadOfD, lockOf(d, kind, name));
            cAcquired.get(20, TimeUnit.SECONDS);
            Await.until("C's take reached Redis", Duration.ofSeconds(10), () -> o.describe(name).offer().isEmpty());
            assertThat(o.describe(name).holders()).extracting(LockHolder::owner).singleElement().asString()
                    .startsWith(cId + ":");
            unlockIn(threadOfC, lockOf(c, kind, name));
        }
        assertNothingLeft();
    }

    private static void assertOfferedTo(LockInfo info, String kind, String managerId, String application,
            Instant releasedAt, int passedOn) {
        Instant now = Instant.now();
        assertThat(info.offer()).as("the standing offer in %s", info).hasValueSatisfying(offer -> {
            assertThat(offer.mode()).isEqualTo(mode(kind));
            assertThat(offer.manager()).isEqualTo(managerId);
            assertThat(offer.process()).as("the process it is reserved for").endsWith(application);
            assertThat(offer.since()).as("offered at the release, no later than now").isBetween(releasedAt, now);
            assertThat(offer.reservationLeft()).as("reserved within the lease").isPositive()
                    .isLessThanOrEqualTo(LEASE);
            assertThat(offer.passedOn()).isEqualTo(passedOn);
        });
    }

    private static String mode(String kind) {
        return kind.equals("reentrant") ? "exclusive" : "write";
    }

    private static LockManager manager(String uri, String application, Duration commandTimeout) {
        return Locksmith.builder().redisUri(uri).applicationName(application).leaseTime(LEASE)
                .commandTimeout(commandTimeout).build();
    }

    private static DistributedLock lockOf(LockManager locks, String kind, String name) {
        return kind.equals("reentrant") ? locks.getLock(name) : locks.getReadWriteLock(name).writeLock();
    }

    /**
     * @return completes once that thread holds the lock (within 60 s)
     */
    private static CompletableFuture<Void> acquireIn(ExecutorService thread, DistributedLock lock) {
        return CompletableFuture.runAsync(() -> {
            try {
                if (!lock.tryLock(60, TimeUnit.SECONDS)) {
                    throw new AssertionError("not acquired within 60 s");
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }, thread);
    }

    private static void unlockIn(ExecutorService thread, DistributedLock lock) throws Exception {
        CompletableFuture.runAsync(lock::unlock, thread).get(20, TimeUnit.SECONDS);
    }

    private static void assertNothingLeft() {
        assertThat(redis.lockStateLeftBehind(PATIENT_RELEASER.toMillis())).as("lock state left behind").isEmpty();
    }

    private static java.util.concurrent.ThreadFactory named(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, "describe-offer-" + name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
