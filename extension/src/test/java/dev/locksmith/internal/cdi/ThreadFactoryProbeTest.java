package dev.locksmith.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The probe that keeps Lettuce's I/O threads off a container's thread factory whose threads do not
 * run now: one that runs them, one whose thread is held back before it reaches its task (as Open
 * Liberty holds back the managed threads made while an application starts), and one whose thread
 * fails before its task.
 */
class ThreadFactoryProbeTest {
    private static final Duration BOUND = Duration.ofMillis(200);

    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseHeldThreads() {
        release.countDown();
    }

    @Test
    void aFactoryWhoseThreadsRunPasses() {
        assertThat(ThreadFactoryProbe.whyNotRunning(Executors.defaultThreadFactory(), Duration.ofSeconds(10))).isNull();
    }

    @Test
    void aFactoryWhoseThreadIsHeldBackBeforeItsTaskIsNamed() {
        ThreadFactory heldBack = task -> new Thread(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                return;
            }
            task.run();
        }, "held-back");

        assertThat(ThreadFactoryProbe.whyNotRunning(heldBack, BOUND))
                .isEqualTo("the thread it made had not run its task after 200 ms (thread state WAITING)");
    }

    @Test
    void aFactoryWhoseThreadFailsBeforeItsTaskIsNamedWithTheFailure() {
        ThreadFactory failing = task -> new Thread(() -> {
            throw new IllegalStateException("application not started");
        }, "failing");

        long start = System.nanoTime();

        assertThat(ThreadFactoryProbe.whyNotRunning(failing, Duration.ofSeconds(30))).isEqualTo(
                "the thread it made ended without running its task: java.lang.IllegalStateException: application not started");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("known when the thread dies, not at the bound")
                .isLessThan(Duration.ofSeconds(30));
    }
}
