package dev.locksmith.vthreads;

import dev.locksmith.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A CDI bean whose {@code @Locked} method updates the counter of one key.
 */
@ApplicationScoped
public class CountingService {
    private final Map<String, Exclusion> guarded = new ConcurrentHashMap<>();

    /**
     * @param key which counter
     */
    @Locked("inventory:bean:warehouse-{0}")
    public void add(String key) {
        guarded(key).write();
    }

    Exclusion guarded(String key) {
        return guarded.computeIfAbsent(key, k -> new Exclusion());
    }
}
