package dev.locksmith.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.CountedMetrics;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.ThrowingTelemetry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What telemetry does never changes what a lock does: an observer that throws is caught and
 * logged, and a grant that fails after it was counted stops being counted.
 */
class ObserverFailureTest {
    private static final long COMMAND_TIMEOUT_MILLIS = 5_000;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aTelemetryThatThrowsEverywhereNeitherReachesTheCallerNorLeaksALock() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri())
                .openTelemetry(ThrowingTelemetry.create(null, () -> new IllegalStateException("exporter down")))
                .build()) {
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger counter = new AtomicInteger();
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                workers.add(threads.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        locks.callWithLock("observed", Duration.ofSeconds(30), () -> {
                            assertThat(inside.incrementAndGet()).as("holders at once").isOne();
                            counter.set(counter.get() + 1);
                            return inside.decrementAndGet();
                        });
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(2, TimeUnit.MINUTES);
            }

            assertThat(counter).hasValue(200);
            assertThat(redis.lockStateLeftBehind(COMMAND_TIMEOUT_MILLIS)).isEmpty();
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aGrantTheReplicasDidNotConfirmIsNotCountedAsHeld() throws Exception {
        try (CountedMetrics metrics = new CountedMetrics();
             LockManager locks = Locksmith.builder().redisUri(redis.uri()).syncReplicas(1, Duration.ofMillis(50))
                     .openTelemetry(metrics.openTelemetry()).build()) {
            DistributedLock lock = locks.getLock("unreplicated");

            assertThatThrownBy(() -> lock.tryLock(1, TimeUnit.SECONDS)).isInstanceOf(LockException.class)
                    .hasMessageContaining("replica");

            assertThat(metrics.gauge("locksmith.locks.held")).as("locks counted as held").isZero();
            assertThat(lock.isLocked()).isFalse();
        }
    }
}
