package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.LockManager;
import dev.locksmith.Locked;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.RedisConfigExtension;
import jakarta.annotation.Priority;
import jakarta.enterprise.concurrent.Asynchronous;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With Jakarta Concurrency's {@code @Asynchronous} (whose interceptor has a lower priority, as in
 * servers), the asynchronous execution holds the lock, not the caller that submitted it.
 */
@EnableWeld
class AsynchronousOrderTest {
    @RegisterExtension
    @Order(1)
    static final RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    @Order(2)
    static final RedisConfigExtension config = new RedisConfigExtension(redis);

    @WeldSetup
    WeldInitiator weld = WeldInitiator.from(CdiContainers.weld(ServerAsynchronousInterceptor.class, Mailer.class))
            .build();

    @Inject
    LockManager locks;
    @Inject
    Mailer mailer;

    @Test
    void theAsynchronousExecutionHoldsTheLockNotTheSubmission() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);

        CompletableFuture<Boolean> heldByWorker = mailer.send("batch-1", inside, finish);

        assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(locks.getLock("mail:batch-1").isLocked()).as("the worker holds it").isTrue();
        assertThat(locks.getLock("mail:batch-1").isHeldByCurrentThread()).as("the caller does not").isFalse();
        finish.countDown();
        assertThat(heldByWorker.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(locks.getLock("mail:batch-1").isLocked()).isFalse();
    }

    /**
     * Does what a Jakarta Concurrency implementation's {@code @Asynchronous} interceptor does, at
     * the priority servers give it: the rest of the chain runs on another thread.
     */
    @Asynchronous
    @Interceptor
    @Priority(Interceptor.Priority.PLATFORM_BEFORE + 5)
    static class ServerAsynchronousInterceptor {
        @AroundInvoke
        Object submit(InvocationContext invocation) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return ((CompletableFuture<?>) invocation.proceed()).join();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }

    @ApplicationScoped
    static class Mailer {
        @Inject
        LockManager locks;

        @Asynchronous
        @Locked("mail:{batch}")
        public CompletableFuture<Boolean> send(String batch, CountDownLatch inside, CountDownLatch finish)
                throws InterruptedException {
            boolean held = locks.getLock("mail:" + batch).isHeldByCurrentThread();
            inside.countDown();
            finish.await(30, TimeUnit.SECONDS);
            return CompletableFuture.completedFuture(held);
        }
    }
}
