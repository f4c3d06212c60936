package dev.locksmith.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The threads of one worker JVM, each locking and unlocking its lock as fast as it can from the
 * window's start to its end. A cycle counts when it completes inside the measured part of the
 * window. The critical section is empty except for the {@link OccupancyProbe}, which counts
 * holders that should exclude each other but met inside as a violation, and, where the scenario
 * measures them, the {@link HandOffProbe}'s stamps.
 */
final class CycleLoop {
    private static final long STRAGGLER_GRACE_MILLIS = TimeUnit.SECONDS.toMillis(60);

    private final List<LockClient> clients;
    private final Scenario scenario;
    private final String run;
    private final int jvm;
    private final OccupancyProbe probe;
    private final HandOffProbe handOffs;

    /**
     * @param clients  one per lock manager of this JVM ({@link Scenario#managersPerJvm()})
     * @param run      the measurement's unique lock name prefix
     * @param jvm      this worker JVM's index within the scenario
     * @param probe    the occupancy file shared by the measurement's worker JVMs
     * @param handOffs the hand-off file shared by them, null where the scenario measures no hand-offs
     */
    CycleLoop(List<LockClient> clients, Scenario scenario, String run, int jvm, OccupancyProbe probe,
              HandOffProbe handOffs) {
        this.clients = List.copyOf(clients);
        this.scenario = scenario;
        this.run = run;
        this.jvm = jvm;
        this.probe = probe;
        this.handOffs = handOffs;
    }

    /**
     * The cycles this JVM completed in the measured part of the window, and how many times the
     * probe saw a second holder.
     */
    record Outcome(long cycles, long violations) {
    }

    /**
     * Runs every thread through {@code window} and waits for all of them.
     *
     * @return the summed outcome of the threads
     * @throws IllegalStateException carrying the first failure of a thread (a lock that threw,
     *                               or a thread still stuck a minute after the window ended)
     */
    Outcome run(Window window) throws InterruptedException {
        int threads = scenario.threadsPerJvm();
        long[] cycles = new long[threads];
        long[] violations = new long[threads];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            int lockIndex = scenario.lockIndex(jvm, thread);
            int manager = scenario.managerOf(thread);
            CycleLock locked = clients.get(manager).lockFor(scenario.kind(), scenario.lockName(run, lockIndex));
            ReleaseStamp stamp = new ReleaseStamp();
            CycleLock lock = handOffs == null ? locked : timedRelease(locked, stamp, window);
            CycleLock.Inside inside = inside(lockIndex, jvm * scenario.managersPerJvm() + manager, window, stamp);
            Runnable work = () -> {
                try {
                    Outcome outcome = cycle(lock, inside, window);
                    cycles[thread] = outcome.cycles();
                    violations[thread] = outcome.violations();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            };
            String name = "bench-" + jvm + "-" + thread;
            Thread worker = scenario.virtualThreads() ? VirtualThreadFactory.unstarted(name, work) : new Thread(work, name);
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join(Math.max(1, window.measureUntil() + STRAGGLER_GRACE_MILLIS - System.currentTimeMillis()));
            if (worker.isAlive()) {
                failure.compareAndSet(null, new IllegalStateException(worker.getName()
                        + " is still in lock() or unlock() a minute after the window ended"));
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("A benchmark thread failed: " + failure.get(), failure.get());
        }
        long cycleSum = 0;
        long violationSum = 0;
        for (int t = 0; t < threads; t++) {
            cycleSum += cycles[t];
            violationSum += violations[t];
        }
        return new Outcome(cycleSum, violationSum);
    }

    /**
     * @param manager the thread's process (lock manager) over all worker JVMs
     * @return the critical section: the occupancy probe, and where measured the hand-off stamps,
     *         the first and last things under the lock
     */
    private CycleLock.Inside inside(int lockIndex, int manager, Window window, ReleaseStamp stamp) {
        if (handOffs == null) {
            return exclusive -> (probe.enter(lockIndex, exclusive) ? 1 : 0) + (probe.leave(lockIndex, exclusive) ? 1 : 0);
        }
        return exclusive -> {
            long acquired = HandOffProbe.now();
            handOffs.acquired(manager, acquired, counted(window, acquired));
            int violations = (probe.enter(lockIndex, exclusive) ? 1 : 0) + (probe.leave(lockIndex, exclusive) ? 1 : 0);
            stamp.at = handOffs.releasing(manager);
            return violations;
        };
    }

    /**
     * @return cycles of {@code lock} that record, as the first thing after {@code unlock()}
     *         returned, how long it took since the stamp {@link #inside} wrote before it
     */
    private CycleLock timedRelease(CycleLock lock, ReleaseStamp stamp, Window window) {
        return inside -> {
            int violations = lock.cycle(inside);
            long released = HandOffProbe.now();
            handOffs.released(stamp.at, released, counted(window, released));
            return violations;
        };
    }

    /**
     * @param nanos a time on {@link HandOffProbe#now()}'s clock
     * @return whether it falls in the window's counted part
     */
    private static boolean counted(Window window, long nanos) {
        return nanos >= window.measureFrom() * 1_000_000L && nanos < window.measureUntil() * 1_000_000L;
    }

    /** One thread's last release stamp, from just before its {@code unlock()} to just after it. */
    private static final class ReleaseStamp {
        long at;
    }

    private Outcome cycle(CycleLock lock, CycleLock.Inside inside, Window window) throws InterruptedException {
        long counted = 0;
        long violations = 0;
        Window.sleepUntil(window.startAt());
        while (true) {
            // The cycle is a method of its own (CycleLock's), compiled once and kept across windows,
            // not compiled on-stack anew inside each counted window.
            violations += lock.cycle(inside);
            long now = System.currentTimeMillis();
            if (now >= window.measureUntil()) {
                return new Outcome(counted, violations);
            }
            if (now >= window.measureFrom()) {
                counted++;
            }
        }
    }
}
