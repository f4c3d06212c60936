package dev.locksmith.sample.testhooks;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The traces of this server's traced requests, by id. A trace exists as soon as either side
 * names it, so a test may wait for a point before its request has even arrived.
 */
@ApplicationScoped
public class TestHooks {
    private final ConcurrentMap<String, Trace> traces = new ConcurrentHashMap<>();

    @Inject
    @ConfigProperty(name = "sample.test-hooks.enabled", defaultValue = "false")
    boolean enabled;

    /**
     * @return whether {@code sample.test-hooks.enabled} is true
     */
    public boolean enabled() {
        return enabled;
    }

    Trace trace(String id) {
        return traces.computeIfAbsent(id, Trace::new);
    }
}
