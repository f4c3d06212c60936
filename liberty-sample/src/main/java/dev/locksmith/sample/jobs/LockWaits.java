package dev.locksmith.sample.jobs;

import dev.locksmith.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How long each callback of a scheduled job waited for its lock on this server, in the order they
 * came since the application started, the ones that skipped their slot as well as the ones that ran
 * it: from the moment {@link TimerControlInterceptor} lets the call on to {@code @Locked} until the
 * job's body starts or, for a skip, until {@code @Locked} returns without running it. The first of
 * them shows whether the first callback after deployment pays for anything the later ones do not,
 * such as the connection to Redis. Counting only the runs would not: a server that skips every slot
 * while the other runs them runs its first slot much later, after whatever happened meanwhile
 * (a Redis restart, say). On a Concurrency 3.1 schedule the call that starts it is listed too, as a
 * callback that did not run.
 */
@ApplicationScoped
public class LockWaits {
    // The callback under way on the timer's thread: the interceptor starts it, the job's body marks it.
    private static final ThreadLocal<Underway> UNDERWAY = new ThreadLocal<>();

    private final Map<String, List<Callback>> callbacks = new ConcurrentHashMap<>();

    /**
     * One callback of a job.
     *
     * @param at     when the callback went on to the lock, as an ISO-8601 instant
     * @param micros how long it waited for the lock, or until it skipped, in microseconds
     * @param ran    whether it ran the job's body, {@code false} for a skip
     */
    public record Callback(String at, long micros, boolean ran) {
    }

    private static final class Underway {
        final Instant at = Instant.now();
        final long started = System.nanoTime();
        long acquired;
    }

    static void callStarts() {
        UNDERWAY.set(new Underway());
    }

    /**
     * Files the callback under way on this thread, under its job's name.
     *
     * @param locked the called method's {@code @Locked}; without one nothing is filed
     */
    public void callEnds(Locked locked) {
        Underway underway = UNDERWAY.get();
        UNDERWAY.remove();
        if (underway == null || locked == null) {
            return;
        }
        boolean ran = underway.acquired != 0;
        long waited = (ran ? underway.acquired : System.nanoTime()) - underway.started;
        String job = locked.job().isEmpty() ? locked.value() : locked.job();
        callbacks.computeIfAbsent(job, name -> Collections.synchronizedList(new ArrayList<>()))
                .add(new Callback(underway.at.toString(), waited / 1_000, ran));
    }

    /**
     * Called first thing in a job's body, inside its lock: the callback ran the job.
     */
    public void acquired() {
        Underway underway = UNDERWAY.get();
        if (underway != null && underway.acquired == 0) {
            underway.acquired = System.nanoTime();
        }
    }

    /**
     * @param job the job's name: its {@code @Locked} {@code job}, or its lock name where it has none
     * @return each callback's wait for the lock, oldest first; empty before the first callback
     */
    public List<Callback> of(String job) {
        List<Callback> waits = callbacks.get(job);
        if (waits == null) {
            return List.of();
        }
        synchronized (waits) {
            return List.copyOf(waits);
        }
    }
}
