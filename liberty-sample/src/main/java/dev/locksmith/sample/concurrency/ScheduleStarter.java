package dev.locksmith.sample.concurrency;

import dev.locksmith.sample.jobs.JobControl;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/**
 * Starts {@link ScheduledSlotJob}'s schedule when the application starts, where the server has
 * Jakarta Concurrency 3.1 and {@code sample.jobs.enabled} is on. A scheduled asynchronous method
 * is started by calling it once; the server runs it at each time of its schedule from then on.
 *
 * <p>The 3.1 API alone is not enough: a server with it over a 3.0 implementation (WildFly Preview
 * 38) ignores {@code runAt} and would run the job once, at once, as a plain asynchronous method. Its
 * implementation is taken to be 3.1's when it also honours the other 3.1 member, {@code virtual = true}
 * ({@link VirtualThreadExecutor}); Jakarta EE 11 servers run on Java 21 or later, where it must.
 */
@ApplicationScoped
public class ScheduleStarter {
    private static final Logger LOG = Logger.getLogger(ScheduleStarter.class.getName());

    @Inject
    JobControl jobs;

    @Inject
    Instance<ScheduledSlotJob> job;

    @Inject
    VirtualThreadExecutor virtualThreads;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        if (!jobs.enabled()) {
            return;
        }
        if (!ConcurrencyLevel.hasScheduledAsynchronousMethods() || virtualThreads.get().isEmpty()) {
            LOG.info("No Jakarta Concurrency 3.1 implementation (@Asynchronous(runAt)) on this server: "
                    + ScheduledSlotJob.LOCK + " does not run");
            return;
        }
        job.get().runSlot();
        LOG.info(ScheduledSlotJob.LOCK + " scheduled with @Asynchronous(runAt = @Schedule(cron = \"*/2 * * * * *\"))");
    }
}
