package dev.locksmith.sample.testhooks;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;

/**
 * Arms the request's {@link TestProbe} from its {@code X-Test-Id}, {@code X-Test-Pause} and
 * {@code X-Test-Fail} headers, when test hooks are enabled, and records {@link Point#RECEIVED}.
 */
@Provider
@ApplicationScoped
public class TestHookFilter implements ContainerRequestFilter {
    @Inject
    TestHooks hooks;

    @Inject
    TestProbe probe;

    @Override
    public void filter(ContainerRequestContext request) {
        String id = request.getHeaderString("X-Test-Id");
        if (!hooks.enabled() || id == null || id.isBlank()) {
            return;
        }
        probe.arm(id, Point.parse(request.getHeaderString("X-Test-Pause")),
                Point.parse(request.getHeaderString("X-Test-Fail")));
        probe.reached(Point.RECEIVED);
    }
}
