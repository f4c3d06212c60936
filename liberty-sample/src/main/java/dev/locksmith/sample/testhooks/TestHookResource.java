package dev.locksmith.sample.testhooks;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;

/**
 * {@code /api/test-hooks/{id}}: wait until a traced request reached a point, and resume it.
 */
@Path("/test-hooks/{id}")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class TestHookResource {
    @Inject
    TestHooks hooks;

    /**
     * @param id      the request's trace
     * @param point   the point
     * @param reached whether the request got there within the wait
     */
    public record Arrival(String id, Point point, boolean reached) {
    }

    /**
     * @return whether request {@code id} reached {@code point}, waiting up to {@code waitMs}
     */
    @GET
    @Path("/{point}")
    public Arrival reached(@PathParam("id") String id, @PathParam("point") String point,
            @QueryParam("waitMs") @DefaultValue("0") long waitMs) throws InterruptedException {
        requireEnabled();
        Point at = Point.parse(point);
        return new Arrival(id, at, hooks.trace(id).awaitReached(at, Duration.ofMillis(waitMs)));
    }

    /**
     * Lets request {@code id} go on from where it was told to stop.
     */
    @POST
    @Path("/resume")
    public Response resume(@PathParam("id") String id) {
        requireEnabled();
        hooks.trace(id).resume();
        return Response.noContent().build();
    }

    private void requireEnabled() {
        if (!hooks.enabled()) {
            throw new NotFoundException("Test hooks are off; start the server with SAMPLE_TEST_HOOKS_ENABLED=true");
        }
    }
}
