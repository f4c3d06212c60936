package dev.locksmith.sample;

import dev.locksmith.LockInfo;
import dev.locksmith.LockManager;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/locks/{name}}: who holds a lock now, from any server, as
 * {@link LockManager#describe(String)} tells it, or, between a release and the next holder, the
 * server the lock stands reserved for ({@code offer}, absent when none). For a stuck job, this is
 * where to look first. {@link LockInfo} is rendered whole, so every field it has is shown.
 *
 * <pre>
 * GET /api/locks/stock:espresso -> 200 {"name": "stock:espresso", "holders": [{"owner", "mode", "process",
 *                                  "thread", "holdCount", "fencingToken", "since", "leaseLeft"}],
 *                                  "waitingInQueue": 0, "waitingProcesses": 1,
 *                                  "offer": {"mode", "manager", "process", "since", "reservationLeft", "passedOn"}}
 * GET /api/locks?name=stock:espresso -> the same
 * </pre>
 *
 * <p>The query form is for servers that refuse a {@code :} in a request path, encoded or not, as
 * Payara 7 does (its authorization module rejects such a URL pattern with 503).
 */
@Path("/locks")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class LockResource {
    @Inject
    LockManager locks;

    @GET
    @Path("/{name}")
    public LockInfo describe(@PathParam("name") String name) {
        return locks.describe(name);
    }

    @GET
    public LockInfo describeNamed(@QueryParam("name") String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("Name the lock: GET /api/locks?name=stock:espresso, or /api/locks/{name}");
        }
        return locks.describe(name);
    }
}
