package dev.locksmith.internal.jfr;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.Event;

/**
 * Where a finished Locksmith event is committed: on the caller's thread when it is a platform thread,
 * as before; on one platform thread of Locksmith's own ({@code locksmith-jfr}) when the caller is a
 * virtual thread.
 *
 * <p>Why: an event's writer cannot move to another carrier, so when a virtual thread's event sends a string
 * field of 17 characters or more to the JVM ({@code jdk.jfr.internal.StringPool}: once per string and
 * chunk or flush; lock names and templates are usually that long), the JDK pins the thread and takes one
 * JVM-wide monitor. Thousands of waiting virtual threads would queue on that monitor with their carriers
 * blocked, each such wait a {@code jdk.VirtualThreadPinned} event. A single platform writer never
 * contends and never pins.
 *
 * <p>Threads: any caller hands an event over (an offer to a bounded queue, whose lock a virtual thread
 * waits for without pinning); the writer thread alone takes events off it. The writer is started on the
 * first hand-over and ends after a second without any, so no thread outlives its use (an undeployed
 * application leaves none behind). If the queue is full, or the writer cannot be started, the caller
 * commits the event itself: an event is never dropped, at worst it pins as it did before.
 */
final class EventWriting {
    static final EventWriting SHARED = new EventWriting(16_384, TimeUnit.SECONDS.toNanos(1));

    private static final Logger LOG = System.getLogger(EventWriting.class.getName());

    private final BlockingQueue<Event> pending;
    private final long idleNanos;
    private final AtomicBoolean writerRunning = new AtomicBoolean();

    EventWriting(int capacity, long idleNanos) {
        this.pending = new ArrayBlockingQueue<>(capacity);
        this.idleNanos = idleNanos;
    }

    /**
     * Commits an event whose fields, start and duration the caller has set, including its caller thread.
     *
     * @param event an ended event that should be committed
     */
    void commit(Event event) {
        if (!VirtualThreads.isVirtual(Thread.currentThread())) {
            event.commit();
            return;
        }
        if (!pending.offer(event)) {
            event.commit();
            return;
        }
        if (writerRunning.compareAndSet(false, true)) {
            startWriter();
        }
    }

    private void startWriter() {
        try {
            // A platform thread on purpose: the factory of the Redis threads may make virtual ones.
            Thread writer = new Thread(this::writeUntilIdle, "locksmith-jfr");
            writer.setDaemon(true);
            writer.start();
        } catch (RuntimeException | Error cannotStart) {
            writerRunning.set(false);
            LOG.log(Level.WARNING, "Could not start the thread that writes Locksmith's Flight Recorder events;"
                    + " virtual threads write their own: " + cannotStart);
            writeAllOnThisThread();
        }
    }

    private void writeUntilIdle() {
        try {
            while (true) {
                Event next = pending.poll(idleNanos, TimeUnit.NANOSECONDS);
                if (next != null) {
                    write(next);
                    continue;
                }
                writerRunning.set(false);
                // An event offered after the poll gave up, whose caller still saw this writer running,
                // must not wait for the next hand-over: take the writer's place back, unless that
                // caller already started a new writer.
                if (pending.isEmpty() || !writerRunning.compareAndSet(false, true)) {
                    return;
                }
            }
        } catch (InterruptedException interrupted) {
            writerRunning.set(false);
            writeAllOnThisThread();
            Thread.currentThread().interrupt();
        }
    }

    private void writeAllOnThisThread() {
        for (Event next = pending.poll(); next != null; next = pending.poll()) {
            write(next);
        }
    }

    private static void write(Event event) {
        try {
            event.commit();
        } catch (RuntimeException | Error failure) {
            LOG.log(Level.WARNING, "Flight Recorder refused a Locksmith event " + event.getClass().getSimpleName(),
                    failure);
        }
    }
}
