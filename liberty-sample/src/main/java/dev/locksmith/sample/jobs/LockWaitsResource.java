package dev.locksmith.sample.jobs;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * {@code GET /api/jobs/{job}/lock-waits}: how long each callback of a scheduled job on this server
 * waited for its lock, in microseconds, oldest first, and whether it ran the job or skipped the
 * slot ({@link LockWaits}).
 *
 * <pre>
 * GET /api/jobs/sample-job/lock-waits -> 200
 *   [{"at":"2026-12-03T09:00:02.001Z","micros":1843,"ran":true},
 *    {"at":"2026-12-03T09:00:04.002Z","micros":912,"ran":false}, ...]
 * </pre>
 */
@Path("/jobs/{job}/lock-waits")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class LockWaitsResource {
    @Inject
    LockWaits waits;

    @GET
    public List<LockWaits.Callback> lockWaits(@PathParam("job") String job) {
        return waits.of(job);
    }
}
