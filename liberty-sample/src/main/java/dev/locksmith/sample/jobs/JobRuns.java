package dev.locksmith.sample.jobs;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * Writes a run of a scheduled job to {@code job_run}, in a transaction of its own: for jobs whose
 * timer does not start one (a task on a {@code ManagedScheduledExecutorService}, Quarkus's
 * {@code @Scheduled}). Called inside the job's lock, so the row is committed before it is released.
 */
@ApplicationScoped
public class JobRuns {
    @PersistenceContext(unitName = "stock")
    EntityManager entityManager;

    /**
     * @param job      the job's lock name
     * @param slot     the slot this run belongs to, the same on every server
     * @param instance the server that ran it
     */
    @Transactional
    public void record(String job, Instant slot, String instance) {
        entityManager.createNativeQuery("INSERT INTO job_run (job, slot, instance, ran_at) VALUES (?, ?, ?, ?)")
                .setParameter(1, job)
                .setParameter(2, slot.toString())
                .setParameter(3, instance)
                .setParameter(4, Timestamp.from(Instant.now()))
                .executeUpdate();
    }
}
