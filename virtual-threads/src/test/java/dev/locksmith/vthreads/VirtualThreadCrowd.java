package dev.locksmith.vthreads;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Thousands of virtual threads, each started at once and released together by one latch, every one of
 * which must finish its work before a deadline; the first failure of any of them fails the run.
 */
final class VirtualThreadCrowd {
    /**
     * One virtual thread's work.
     */
    @FunctionalInterface
    interface Work {
        void run(int index) throws Exception;
    }

    private VirtualThreadCrowd() {
    }

    /**
     * @param threads  how many virtual threads
     * @param deadline how long all of them may take together
     * @param work     what each does, given its index
     * @throws AssertionError if one failed or the deadline passed first, with the first failure as cause
     */
    static void run(int threads, Duration deadline, Work work) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> done = new ArrayList<>(threads);
            for (int i = 0; i < threads; i++) {
                int index = i;
                done.add(executor.submit(() -> {
                    go.await();
                    work.run(index);
                    return null;
                }));
            }
            go.countDown();
            long end = System.nanoTime() + deadline.toNanos();
            for (int i = 0; i < threads; i++) {
                try {
                    done.get(i).get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException failed) {
                    executor.shutdownNow();
                    throw new AssertionError("virtual thread " + i + " of " + threads + " failed", failed.getCause());
                } catch (TimeoutException late) {
                    executor.shutdownNow();
                    throw new AssertionError("virtual thread " + i + " of " + threads + " was not done within "
                            + deadline);
                }
            }
        }
    }
}
