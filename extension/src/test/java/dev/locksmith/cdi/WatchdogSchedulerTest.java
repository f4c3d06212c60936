package dev.locksmith.cdi;

import static dev.locksmith.testing.TestConfig.properties;
import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.testing.LiveThreads;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.CdiContainers.Application;
import dev.locksmith.testing.FakeManagedScheduler;
import dev.locksmith.testing.InMemoryNaming;
import dev.locksmith.testing.LogCapture;
import dev.locksmith.testing.RedisServerExtension;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The watchdog runs on the container's {@code ManagedScheduledExecutorService} when there is
 * one, and on a private daemon thread only when there is none; Locksmith never calls a managed
 * executor's life-cycle methods and never publishes one as a bean.
 */
class WatchdogSchedulerTest {
    private static final String LEASE = "300ms";

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @AfterEach
    void unbind() {
        InMemoryNaming.clear();
    }

    /**
     * Holds a watchdog lock for longer than two leases, waiting on the scheduler's own runs.
     */
    private static void holdBeyondTheLease(LockManager locks, FakeManagedScheduler scheduler)
            throws InterruptedException {
        DistributedLock lock = locks.getLock("long-job");
        lock.lock();
        try {
            // Renewals every third of the lease: seven runs span more than two leases.
            assertThat(scheduler.awaitMoreRuns(7, Duration.ofSeconds(30))).as("renewals on the managed scheduler")
                    .isTrue();
            assertThat(lock.isHeldByCurrentThread()).as("still held after two leases").isTrue();
        } finally {
            lock.unlock();
        }
    }

    @Test
    void theManagedSchedulerBoundAtTheConfiguredNameRunsTheWatchdogAndIsNeverShutDown() throws Exception {
        String name = "java:comp/env/concurrent/LockWatchdog";
        try (FakeManagedScheduler scheduler = new FakeManagedScheduler();
             LogCapture logs = LogCapture.start()) {
            InMemoryNaming.bind(name, scheduler.managed());
            try (Application app = CdiContainers.start(properties(redis.uri(), "locksmith.executor", name,
                    "locksmith.lease-time", LEASE))) {
                holdBeyondTheLease(app.get(LockManager.class), scheduler);
            }

            assertThat(scheduler.lifecycleCalls()).isEmpty();
            assertThat(scheduler.scheduledTasks()).as("the watchdog's task is cancelled at shutdown").isZero();
            assertThat(logs.messages()).anyMatch(line -> line.contains("watchdog runs on the container's ManagedScheduledExecutorService at " + name));
        }
    }

    @Test
    void theDefaultJndiNameIsTheServersDefaultManagedScheduler() throws Exception {
        try (FakeManagedScheduler scheduler = new FakeManagedScheduler()) {
            InMemoryNaming.bind("java:comp/DefaultManagedScheduledExecutorService", scheduler.managed());
            try (Application app = CdiContainers.start(properties(redis.uri(), "locksmith.lease-time", LEASE))) {
                holdBeyondTheLease(app.get(LockManager.class), scheduler);
            }

            assertThat(scheduler.lifecycleCalls()).isEmpty();
        }
    }

    @Test
    void aManagedSchedulerBeanIsUsedWhenNothingIsBoundInJndi() throws Exception {
        try (Application app = CdiContainers.start(properties(redis.uri(), "locksmith.lease-time", LEASE),
                ServerResources.class)) {
            FakeManagedScheduler scheduler = app.get(FakeManagedScheduler.class);

            holdBeyondTheLease(app.get(LockManager.class), scheduler);

            assertThat(app.beanManager().getBeans(ManagedScheduledExecutorService.class))
                    .as("the application's own bean, and no second one from Locksmith").hasSize(1);
            assertThat(scheduler.lifecycleCalls()).isEmpty();
        }
    }

    @Test
    void withoutAManagedSchedulerAPrivateDaemonThreadRunsTheWatchdogAndTheLogSaysSo() throws Exception {
        try (LogCapture logs = LogCapture.start();
             Application app = CdiContainers.start(properties(redis.uri(), "locksmith.lease-time", LEASE))) {
            DistributedLock lock = app.get(LockManager.class).getLock("se-job");
            lock.lock();
            try {
                assertThat(LiveThreads.daemonNamed("locksmith-watchdog")).as("a live daemon thread locksmith-watchdog")
                        .isTrue();
                assertThat(lock.remainingLease()).isLessThanOrEqualTo(Duration.ofMillis(300));
            } finally {
                lock.unlock();
            }

            assertThat(app.beanManager().getBeans(ManagedScheduledExecutorService.class)).isEmpty();
            assertThat(logs.messages()).anyMatch(line -> line.contains("watchdog runs on a private daemon scheduler"));
        }
    }

    @Test
    void aJndiNameBoundToSomethingElseFailsTheDeploymentSayingWhatItFound() {
        String name = "java:comp/env/notAScheduler";
        InMemoryNaming.bind(name, "a string");

        // The manager is made, and its scheduler looked up, while the application starts.
        Throwable failure = CdiContainers.startFailure(properties(redis.uri(), "locksmith.executor", name));

        assertThat(failure).as("the deployment fails").isNotNull();
        assertThat(CdiContainers.messages(failure)).contains("locksmith.executor = '" + name
                + "' names a java.lang.String, not a ManagedScheduledExecutorService");
    }

    /**
     * What a Jakarta EE 11 server offers: the default managed scheduler as a CDI bean.
     */
    @ApplicationScoped
    static class ServerResources {
        private final FakeManagedScheduler scheduler = new FakeManagedScheduler();

        @Produces
        @Dependent
        FakeManagedScheduler fake() {
            return scheduler;
        }

        @Produces
        @Dependent
        ManagedScheduledExecutorService managed() {
            return scheduler.managed();
        }
    }
}
