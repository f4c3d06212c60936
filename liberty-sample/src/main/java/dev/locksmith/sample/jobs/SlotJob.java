package dev.locksmith.sample.jobs;

import dev.locksmith.Locked;
import dev.locksmith.WhenHeld;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Timer;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.sql.Timestamp;
import java.time.Instant;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A job that must run once per slot across the cluster, on an EJB timer that fires on every
 * server: every 2 s it writes which server ran which slot to {@code job_run}. Without a lock each
 * server would write a row per slot; with {@code @Locked} and {@code waitTime = 0} alone, a server
 * whose timer fires a little late (clock skew) finds the lock already free and runs the slot again.
 * The minimum hold keeps the lock for 1.5 s after the run started, so the late server skips the slot,
 * quietly ({@code whenHeld = SKIP}): nothing is thrown into the timer service. The lock is named
 * per slot ({@code sample-job:{slot}}, the scheduled time of this firing, read from the timer), and
 * the job apart from it ({@code job = "sample-job"}): a server that dies mid-run holds only its own
 * slot's lock, so the next slot runs on another server at once, and Redis keeps one record of the
 * job, not one per slot. The minimum hold is written with its own unit beside a lease in seconds.
 * {@code GET /api/locks/sample-job} shows the last run, whatever slot ran it.
 */
@Singleton
@TimerControl
public class SlotJob {
    /** The job's name; its lock is {@code sample-job:<slot>}, one per slot. */
    public static final String LOCK = "sample-job";
    private static final long SLOT_MILLIS = 2_000;

    @PersistenceContext(unitName = "stock")
    EntityManager entityManager;

    @Inject
    @ConfigProperty(name = "sample.instance", defaultValue = "sample")
    String instance;

    @Inject
    LockWaits waits;

    /**
     * @param timer the timer that fired: during the callback its next timeout is the next slot,
     *              so this slot is 2 s before it, however late the callback runs
     */
    @Schedule(second = "*/2", minute = "*", hour = "*", persistent = false)
    @Locked(value = LOCK + ":{slot}", job = LOCK, whenHeld = WhenHeld.SKIP, minHoldDuration = "1.5s", leaseTime = 60)
    public void runSlot(Timer timer) {
        waits.acquired();
        long now = System.currentTimeMillis();
        Instant slot = timer.getNextTimeout().toInstant().minusMillis(SLOT_MILLIS);
        entityManager.createNativeQuery("INSERT INTO job_run (slot, instance, ran_at) VALUES (?, ?, ?)")
                .setParameter(1, slot.toString())
                .setParameter(2, instance)
                .setParameter(3, Timestamp.from(Instant.ofEpochMilli(now)))
                .executeUpdate();
    }
}
