package dev.locksmith.sample.jobs;

import dev.locksmith.CallOptions;
import dev.locksmith.LockManager;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The scheduled job without a timer service: a plain task on the server's
 * {@code ManagedScheduledExecutorService}, every 2 s on every server, that takes its lock by hand with
 * {@code LockManager.callWithLock} and {@link CallOptions}: one attempt, skip when held, and a
 * minimum hold of 1.5 s, so each slot runs once across the servers, as {@link SlotJob} does with
 * {@code @Locked}. Its runs go to {@code job_run} as job {@value #LOCK}.
 *
 * <p>The executor is looked up in JNDI as an {@code ExecutorService} of {@code java.util.concurrent},
 * so this class loads on a server without Jakarta Concurrency too, where the task does not run.
 */
@ApplicationScoped
public class ManagedSlotTask {
    /** The task's lock name, also its {@code job} in {@code job_run}. */
    public static final String LOCK = "sample-task";
    private static final Logger LOG = Logger.getLogger(ManagedSlotTask.class.getName());
    private static final long SLOT_MILLIS = 2_000;
    private static final CallOptions ONCE_PER_SLOT = CallOptions.waitingUpTo(Duration.ZERO)
            .minHold(Duration.ofMillis(1_500))
            .skipWhenHeld();

    @Inject
    LockManager locks;

    @Inject
    JobRuns runs;

    @Inject
    JobControl jobs;

    @Inject
    @ConfigProperty(name = "sample.instance", defaultValue = "sample")
    String instance;

    private volatile ScheduledFuture<?> schedule;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        if (!jobs.enabled()) {
            return;
        }
        ScheduledExecutorService executor;
        try {
            executor = (ScheduledExecutorService) new InitialContext()
                    .lookup("java:comp/DefaultManagedScheduledExecutorService");
        } catch (NamingException e) {
            LOG.info("No ManagedScheduledExecutorService (Jakarta Concurrency is off): " + LOCK + " does not run");
            return;
        }
        // Every server's task fires on the same instants (:00, :02, ...), as timers of one schedule do.
        long firstDelay = SLOT_MILLIS - System.currentTimeMillis() % SLOT_MILLIS;
        schedule = executor.scheduleAtFixedRate(this::runSlot, firstDelay, SLOT_MILLIS, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (schedule != null) {
            schedule.cancel(false);
        }
    }

    private void runSlot() {
        try {
            jobs.awaitSkew();
            // The nearest slot boundary: a fixed-rate task fires a little early or late, never a slot off.
            Instant slot = Instant.ofEpochMilli(Math.floorDiv(System.currentTimeMillis() + SLOT_MILLIS / 2, SLOT_MILLIS)
                    * SLOT_MILLIS);
            locks.callWithLock(LOCK, ONCE_PER_SLOT, () -> {
                runs.record(LOCK, slot, instance);
                return null;
            });                                                 // returns null at once when skipped
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // Keep the schedule going: an exception out of the task would cancel every later run.
            LOG.log(Level.WARNING, LOCK + " failed", e);
        }
    }
}
