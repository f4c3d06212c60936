package dev.locksmith.it;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A way to run the sample: a runtime and its configuration, with what the suite may expect of it.
 */
interface SampleRuntime {

    /**
     * @param name        the server's name, also its {@code sample.instance}
     * @param workDir     where the server keeps its files
     * @param environment MicroProfile Config keys and runtime variables as environment variables
     * @return the server, once the sample has started on it
     */
    SampleServer start(String name, Path workDir, Map<String, String> environment);

    /**
     * @return whether the server offers MicroProfile Health, so {@code /health/ready} has Locksmith's check
     */
    boolean hasHealth();

    /**
     * @return whether the server offers Jakarta Concurrency, so the watchdog runs on its threads
     */
    boolean hasConcurrency();

    /**
     * @return whether the server has Jakarta Concurrency 3.1 (Jakarta EE 11): the sample's
     *         {@code @Asynchronous(runAt = @Schedule(...))} job ({@code ScheduledSlotJob}) runs, and
     *         its managed executor of virtual threads takes reservations. Elsewhere the same WAR
     *         deploys, the job never runs and the virtual-thread path answers 501.
     */
    default boolean hasConcurrency31() {
        return false;
    }

    /**
     * @return whether the sample has its Jakarta Concurrency 3.1 classes here (the schedule, the
     *         virtual-thread path): in the WAR, whatever the server; not in the Quarkus build
     */
    default boolean hasSampleConcurrencyClasses() {
        return true;
    }

    /**
     * @return the JNDI name of a {@code ManagedThreadFactory} given to Locksmith for its Redis I/O
     *         threads ({@code locksmith.thread-factory}), when not the server's default one
     */
    default Optional<String> locksmithThreadFactory() {
        return Optional.empty();
    }

    /**
     * @return whether the server exports Locksmith's metrics to its console (MicroProfile Telemetry,
     *         or Quarkus's OpenTelemetry)
     */
    boolean exportsMetrics();

    /**
     * @return whether the sample's task on the {@code ManagedScheduledExecutorService}
     *         ({@code ManagedSlotTask}) runs: where the server has Jakarta Concurrency
     */
    default boolean runsManagedTask() {
        return hasConcurrency();
    }

    /**
     * @return whether the once-per-slot check asserts that each server's first job callback after
     *         deployment waited for its lock no longer than its callbacks of the watched window (it
     *         prints the waits everywhere): on every runtime. It once compared the first run that
     *         acquired the lock, which on the server that skips while the other runs the slots came
     *         after Redis's restart of an earlier check, its try queued in the client meanwhile
     *         (about 2 s on four runtimes), so it was left off; a runtime whose first callback still
     *         pays for something the later ones do not must say so here.
     */
    default boolean assertsFirstLockWait() {
        return true;
    }

    /**
     * @return a message id the runtime logs when a session bean throws a system exception, such
     *         as Liberty's {@code CNTR0020E}: Locksmith's exceptions must never cause it
     */
    String systemExceptionMessage();

    /**
     * @return the locked reservation paths the sample has here: all of them where the runtime has
     *         Enterprise Beans
     */
    default List<Via> lockedPaths() {
        return List.of(Via.values());
    }
}
