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
 * {@code GET /api/jobs/{job}/lock-waits}: how long each run of a scheduled job on this server
 * waited for its lock, in microseconds, oldest first ({@link LockWaits}).
 *
 * <pre>
 * GET /api/jobs/sample-job/lock-waits -> 200 [1843, 912, 877, ...]
 * </pre>
 */
@Path("/jobs/{job}/lock-waits")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class LockWaitsResource {
    @Inject
    LockWaits waits;

    @GET
    public List<Long> lockWaits(@PathParam("job") String job) {
        return waits.of(job);
    }
}
