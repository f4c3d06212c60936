package dev.locksmith.sample.concurrency;

import dev.locksmith.Locked;
import dev.locksmith.WhenHeld;
import dev.locksmith.sample.jobs.JobRuns;
import dev.locksmith.sample.jobs.LockWaits;
import dev.locksmith.sample.jobs.TimerControl;
import jakarta.enterprise.concurrent.Asynchronous;
import jakarta.enterprise.concurrent.Schedule;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The sample's once-per-slot job on a Jakarta Concurrency 3.1 schedule: every 2 s on every server,
 * {@code @Locked} with {@code whenHeld = SKIP} and a minimum hold of 1.5 s beside
 * {@code @Asynchronous(runAt = @Schedule(...))}, so each slot runs once across the servers, as the
 * EJB timer's {@code SlotJob} does. Its runs go to {@code job_run} as job {@value #LOCK}.
 *
 * <p>{@code @Locked}'s interceptor runs inside the asynchronous one, so each scheduled execution
 * takes the lock, not the call that started the schedule. {@link ScheduleStarter} makes that call
 * once, only where the server has Concurrency 3.1: on an EE 10 server {@code runAt} is unknown, and
 * calling the method would run it once, at once, instead of starting a schedule.
 */
@ApplicationScoped
@TimerControl
public class ScheduledSlotJob {
    /** The job's lock name, also its {@code job} in {@code job_run}. */
    public static final String LOCK = "sample-schedule";
    private static final long SLOT_MILLIS = 2_000;

    @Inject
    JobRuns runs;

    @Inject
    LockWaits waits;

    @Inject
    @ConfigProperty(name = "sample.instance", defaultValue = "sample")
    String instance;

    /**
     * Runs one slot. Called once by {@link ScheduleStarter} to start the schedule; the server then
     * calls it at every even second, through the interceptors. Returns nothing, so the schedule
     * goes on after every run, skipped or not.
     */
    @Asynchronous(executor = "java:comp/DefaultManagedScheduledExecutorService",
            runAt = @Schedule(cron = "*/2 * * * * *"))
    @Locked(value = LOCK, whenHeld = WhenHeld.SKIP, minHold = 1_500, unit = ChronoUnit.MILLIS)
    public void runSlot() {
        waits.acquired();
        // The nearest slot boundary: the run starts a little after its instant (and 300 ms late on
        // the skewed server), never a slot off.
        long now = System.currentTimeMillis();
        Instant slot = Instant.ofEpochMilli(Math.floorDiv(now + SLOT_MILLIS / 2, SLOT_MILLIS) * SLOT_MILLIS);
        runs.record(LOCK, slot, instance);
    }
}
