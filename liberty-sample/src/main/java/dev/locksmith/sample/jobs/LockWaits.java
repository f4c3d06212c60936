package dev.locksmith.sample.jobs;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How long each run of a scheduled job waited for its lock on this server, in the order they ran
 * since the application started: from the moment {@link TimerControlInterceptor} lets the call on
 * to {@code @Locked} until the job's body starts. The first of them shows whether the first
 * callback after deployment pays for anything the later ones do not, such as the connection to Redis.
 */
@ApplicationScoped
public class LockWaits {
    // The call's start, on the timer's thread: the interceptor sets it, the job's body reads it.
    private static final ThreadLocal<Long> CALLED = new ThreadLocal<>();

    private final Map<String, List<Long>> micros = new ConcurrentHashMap<>();

    static void callStarts() {
        CALLED.set(System.nanoTime());
    }

    static void callEnds() {
        CALLED.remove();
    }

    /**
     * Called first thing in a job's body, inside its lock.
     *
     * @param job the job's lock name
     */
    public void acquired(String job) {
        Long called = CALLED.get();
        if (called != null) {
            micros.computeIfAbsent(job, name -> Collections.synchronizedList(new ArrayList<>()))
                    .add((System.nanoTime() - called) / 1_000);
        }
    }

    /**
     * @param job the job's lock name
     * @return each run's wait for the lock in microseconds, oldest first; empty before the first run
     */
    public List<Long> of(String job) {
        List<Long> waits = micros.get(job);
        if (waits == null) {
            return List.of();
        }
        synchronized (waits) {
            return List.copyOf(waits);
        }
    }
}
