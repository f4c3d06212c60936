package dev.locksmith.benchmarks;

/**
 * What is measured: how many worker JVMs, how many threads in each, and whether they all take
 * one lock name or each thread its own.
 */
enum Scenario {
    UNCONTENDED_1("Uncontended, 1 thread", 1, 1, false),
    UNCONTENDED_8("Uncontended, 8 threads", 1, 8, false),
    CONTENDED("Contended, 8 threads x 2 JVMs, 1 lock", 2, 8, true);

    private final String label;
    private final int jvms;
    private final int threadsPerJvm;
    private final boolean oneLock;

    Scenario(String label, int jvms, int threadsPerJvm, boolean oneLock) {
        this.label = label;
        this.jvms = jvms;
        this.threadsPerJvm = threadsPerJvm;
        this.oneLock = oneLock;
    }

    String label() {
        return label;
    }

    int jvms() {
        return jvms;
    }

    int threadsPerJvm() {
        return threadsPerJvm;
    }

    /**
     * @return how many distinct locks the threads of all JVMs use
     */
    int lockCount() {
        return oneLock ? 1 : jvms * threadsPerJvm;
    }

    /**
     * @return the index, among {@link #lockCount()}, of the lock that thread {@code thread} of
     *         worker JVM {@code jvm} takes
     */
    int lockIndex(int jvm, int thread) {
        return oneLock ? 0 : jvm * threadsPerJvm + thread;
    }

    /**
     * @param run a prefix unique to one measurement, so no measurement meets another's keys
     * @return the name of lock {@code index}
     */
    String lockName(String run, int index) {
        return "bench:" + run + ":" + index;
    }
}
