package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.LockType;
import dev.locksmith.Locked;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.RedisConfigExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Stereotype;
import jakarta.inject.Inject;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code @Locked} interceptor on CDI beans: where the binding may sit, what the call holds,
 * and what happens when the lock is busy.
 */
@EnableWeld
class LockedInterceptorTest {
    @RegisterExtension
    @Order(1)
    static final RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    @Order(2)
    static final RedisConfigExtension config = new RedisConfigExtension(redis);

    @WeldSetup
    WeldInitiator weld = WeldInitiator.from(CdiContainers.weld(Shop.class, Ledger.class, Reports.class,
            NightlyJob.class, Billing.class, Catalog.class)).build();

    @Inject
    LockManager locks;
    @Inject
    Shop shop;
    @Inject
    Ledger ledger;
    @Inject
    Reports reports;
    @Inject
    NightlyJob nightlyJob;
    @Inject
    Billing billing;
    @Inject
    Catalog catalog;

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private Callable<Boolean> holds(String name) {
        return () -> locks.getLock(name).isHeldByCurrentThread();
    }

    @Test
    void theMethodRunsHoldingTheLockItsTemplateNamesAndReleasesItOnReturn() throws Exception {
        boolean heldInside = shop.reserve("42", 1, holds("stock:42"));

        assertThat(heldInside).isTrue();
        assertThat(locks.getLock("stock:42").isLocked()).isFalse();
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    @Test
    void aTypeLevelBindingLocksEveryBusinessMethodUnderClassAndMethodName() throws Exception {
        String prefix = Ledger.class.getName() + "#";

        assertThat(ledger.post(holds(prefix + "post"))).isTrue();
        assertThat(ledger.audit(holds(prefix + "audit"))).isTrue();
    }

    @Test
    void aMethodBindingWinsOverTheTypeBinding() throws Exception {
        assertThat(ledger.close(holds("ledger-close"))).isTrue();
    }

    @Test
    void aStereotypeCarriesTheBinding() throws Exception {
        assertThat(reports.render(holds("reports"))).isTrue();
    }

    @Test
    void aSubclassInheritsTheBindingOfItsSuperclass() throws Exception {
        assertThat(nightlyJob.run(holds("nightly"))).isTrue();
    }

    @Test
    void anInterceptorBindingThatCarriesLockedLocksToo() throws Exception {
        assertThat(billing.charge("7", holds("billing:7"))).isTrue();
    }

    @Test
    void aSecondCallerEntersOnlyAfterTheFirstReturned() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        CountDownLatch firstInside = new CountDownLatch(1);
        CountDownLatch letFirstReturn = new CountDownLatch(1);
        Future<?> first = threads.submit(() -> shop.reserve("9", 1, () -> {
            events.add("first in");
            firstInside.countDown();
            letFirstReturn.await(30, TimeUnit.SECONDS);
            events.add("first out");
            return true;
        }));
        assertThat(firstInside.await(30, TimeUnit.SECONDS)).isTrue();

        Future<?> second = threads.submit(() -> shop.reserve("9", 1, () -> events.add("second in")));
        letFirstReturn.countDown();
        first.get(30, TimeUnit.SECONDS);
        second.get(30, TimeUnit.SECONDS);

        assertThat(events).containsExactly("first in", "first out", "second in");
    }

    @Test
    void aLockNotAcquiredWithinTheWaitTimeEndsTheCallWithLockTimeoutException() throws Exception {
        try (LockManager otherJvm = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock busy = otherJvm.getLock("price:5");
            busy.lock();
            try {
                assertThatThrownBy(() -> catalog.reprice("5", () -> true))
                        .isInstanceOf(LockTimeoutException.class)
                        .hasMessageContaining("'price:5'")
                        .hasMessageContaining("Catalog#reprice");
            } finally {
                busy.unlock();
            }
        }
    }

    @Test
    void aNestedCallOnTheSameLockReentersInsteadOfWaitingForItself() throws Exception {
        int holdsInside = shop.reserveTwice("11", () -> locks.getLock("stock:11").getHoldCount());

        assertThat(holdsInside).isEqualTo(2);
        assertThat(locks.getLock("stock:11").isLocked()).isFalse();
    }

    @Test
    void anExceptionFromTheMethodStillReleasesTheLock() {
        assertThatThrownBy(() -> shop.reserve("13", 1, () -> {
            throw new IllegalStateException("out of stock");
        })).isInstanceOf(IllegalStateException.class).hasMessage("out of stock");

        assertThat(locks.getLock("stock:13").isLocked()).isFalse();
    }

    @Test
    void aFixedLeaseTimeIsHeldWithoutTheWatchdog() throws Exception {
        Duration leaseInside = catalog.importFeed(() -> locks.getLock("feed").remainingLease());

        assertThat(leaseInside).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void fairReadAndWriteTypesHoldTheirKindOfLock() throws Exception {
        assertThat(catalog.fairly(() -> locks.getFairLock("fair").isHeldByCurrentThread())).isTrue();
        assertThat(catalog.read(() -> locks.getReadWriteLock("rw").readLock().isHeldByCurrentThread())).isTrue();
        assertThat(catalog.write(() -> locks.getReadWriteLock("rw").writeLock().isHeldByCurrentThread())).isTrue();

        assertThat(locks.getFairLock("fair").isLocked()).isFalse();
        assertThat(locks.getReadWriteLock("rw").readLock().isLocked()).isFalse();
        assertThat(locks.getReadWriteLock("rw").writeLock().isLocked()).isFalse();
    }

    @Test
    void readersShareTheReadLockWhileAWriterWaitsOutside() throws Exception {
        CyclicBarrier bothReading = new CyclicBarrier(2);
        Callable<Boolean> readTogether = () -> catalog.read(() -> {
            bothReading.await(10, TimeUnit.SECONDS);
            return threads.submit(() -> locks.getReadWriteLock("rw").writeLock().tryLock()).get(10, TimeUnit.SECONDS);
        });

        Future<Boolean> first = threads.submit(readTogether);
        Future<Boolean> second = threads.submit(readTogether);

        assertThat(first.get(20, TimeUnit.SECONDS)).as("a writer gets nowhere while readers read").isFalse();
        assertThat(second.get(20, TimeUnit.SECONDS)).isFalse();
    }

    @Test
    void aReaderAskingToWriteFailsAtOnceNamingTheMethod() {
        long start = System.nanoTime();

        assertThatThrownBy(() -> catalog.read(() -> catalog.write(() -> true)))
                .isInstanceOf(IllegalMonitorStateException.class)
                .hasMessageContaining("Catalog#write")
                .hasMessageContaining("'rw'");

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(2_000);
        assertThat(locks.getReadWriteLock("rw").readLock().isLocked()).isFalse();
    }

    @Test
    void aNullValueInTheLockNameIsRejectedNamingThePlaceholder() {
        assertThatThrownBy(() -> shop.reserve(null, 1, () -> true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("{sku}")
                .hasMessageContaining("Shop#reserve");
    }

    @ApplicationScoped
    static class Shop {
        @Inject
        Shop self;

        @Locked("stock:{sku}")
        public <T> T reserve(String sku, int quantity, Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked("stock:{sku}")
        public <T> T reserveTwice(String sku, Callable<T> inside) throws Exception {
            return self.reserve(sku, 1, inside);
        }
    }

    @Locked
    @ApplicationScoped
    static class Ledger {
        public <T> T post(Callable<T> inside) throws Exception {
            return inside.call();
        }

        public <T> T audit(Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked("ledger-close")
        public <T> T close(Callable<T> inside) throws Exception {
            return inside.call();
        }
    }

    @Stereotype
    @Locked("reports")
    @ApplicationScoped
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @interface SerializedReports {
    }

    @SerializedReports
    static class Reports {
        public <T> T render(Callable<T> inside) throws Exception {
            return inside.call();
        }
    }

    @Locked("nightly")
    abstract static class ScheduledJob {
        public <T> T run(Callable<T> inside) throws Exception {
            return inside.call();
        }
    }

    @ApplicationScoped
    static class NightlyJob extends ScheduledJob {
    }

    @InterceptorBinding
    @Locked("billing:{customer}")
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    @interface BillingLock {
    }

    @ApplicationScoped
    static class Billing {
        @BillingLock
        public <T> T charge(String customer, Callable<T> inside) throws Exception {
            return inside.call();
        }
    }

    @ApplicationScoped
    static class Catalog {
        @Locked(value = "price:{0}", waitTime = 0)
        public <T> T reprice(String id, Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked(value = "feed", leaseTime = 2)
        public <T> T importFeed(Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked(value = "fair", type = LockType.FAIR)
        public <T> T fairly(Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked(value = "rw", type = LockType.READ)
        public <T> T read(Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked(value = "rw", type = LockType.WRITE)
        public <T> T write(Callable<T> inside) throws Exception {
            return inside.call();
        }
    }
}
