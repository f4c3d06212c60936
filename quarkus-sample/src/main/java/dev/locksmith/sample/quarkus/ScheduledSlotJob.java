package dev.locksmith.sample.quarkus;

import dev.locksmith.Locked;
import dev.locksmith.WhenHeld;
import dev.locksmith.sample.jobs.JobRuns;
import dev.locksmith.sample.jobs.LockWaits;
import dev.locksmith.sample.jobs.TimerControl;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The Liberty sample's {@code SlotJob} on Quarkus, which has no EJB timers: a Quarkus
 * {@code @Scheduled} method, every 2 s on every instance, with the same per-slot lock
 * ({@code sample-job:{slot}}, here the {@code ScheduledExecution}'s scheduled fire time), the same
 * job name, the same {@code @Locked(whenHeld = SKIP, minHoldDuration = "1.5s")} and the same row in
 * {@code job_run} per run.
 * Quarkus calls a scheduled method through the bean's interceptors, as a business method, so
 * {@code @Locked} (and the sample's {@code @TimerControl}) apply as on any other method. A cron
 * expression, not {@code every = "2s"}, makes every instance fire at the same instants.
 */
@ApplicationScoped
@TimerControl
public class ScheduledSlotJob {
    /** The job's name, the Liberty sample's {@code SlotJob.LOCK}: the same job, locked per slot. */
    public static final String LOCK = "sample-job";

    @Inject
    JobRuns runs;

    @Inject
    LockWaits waits;

    @Inject
    @ConfigProperty(name = "sample.instance", defaultValue = "sample")
    String instance;

    /**
     * @param execution this firing: its scheduled time names the slot, the same on every instance
     */
    @Scheduled(cron = "*/2 * * * * ?", identity = LOCK)
    @Locked(value = LOCK + ":{slot}", job = LOCK, whenHeld = WhenHeld.SKIP, minHoldDuration = "1.5s", leaseTime = 60)
    public void runSlot(ScheduledExecution execution) {
        waits.acquired();
        runs.record(LOCK, execution.getScheduledFireTime().truncatedTo(ChronoUnit.SECONDS), instance);
    }
}
