package dev.locksmith.benchmarks;

import java.lang.management.ManagementFactory;

/**
 * The CPU time this JVM spends in the measured part of a window, all its threads together
 * (the benchmark threads and the client library's I/O threads alike).
 */
final class ProcessCpu {
    private ProcessCpu() {
    }

    /**
     * Blocks until the window's end.
     *
     * @return CPU nanoseconds between {@code measureFrom} and {@code measureUntil}, or -1 when the
     *         JVM cannot tell
     */
    static long during(Window window) throws InterruptedException {
        Window.sleepUntil(window.measureFrom());
        long start = now();
        Window.sleepUntil(window.measureUntil());
        long end = now();
        return start < 0 || end < 0 ? -1 : end - start;
    }

    private static long now() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
