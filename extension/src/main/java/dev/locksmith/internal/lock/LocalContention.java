package dev.locksmith.internal.lock;

import dev.locksmith.internal.redis.ReleaseChannels;
import dev.locksmith.internal.redis.ReleaseChannels.Subscription;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;

/**
 * The threads of this process that want one lock name. Only the thread holding the gate
 * contends in Redis; the others queue on the gate in arrival order. The contender sleeps until
 * the wake-up count moves (a release message from Redis, or a release in this process) or its
 * timeout passes.
 */
final class LocalContention {
    private final String name;
    private final Semaphore gate = new Semaphore(1, true);
    private long wakeUps;
    private Subscription subscription;
    int users; // guarded by the ContentionRegistry's map

    LocalContention(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    /**
     * @return true once this thread is the local contender; false if the deadline passed first
     */
    boolean enterGate(Deadline deadline, Waiting waiting) throws InterruptedException {
        if (deadline.isInfinite()) {
            waiting.acquire(gate);
            return true;
        }
        return waiting.tryAcquire(gate, deadline.remainingNanos());
    }

    void leaveGate() {
        gate.release();
    }

    synchronized long wakeUps() {
        return wakeUps;
    }

    synchronized void wake() {
        wakeUps++;
        notifyAll();
    }

    /**
     * Waits until {@link #wake()} has been called since {@code seen} was read, or the timeout.
     */
    synchronized void awaitWakeUp(long seen, long timeoutNanos, Waiting waiting) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        long left = timeoutNanos;
        while (wakeUps == seen && left > 0) {
            waiting.waitOn(this, left);
            left = deadline - System.nanoTime();
        }
    }

    /**
     * @return completes when this process hears releases of the lock
     */
    synchronized CompletionStage<Void> listen(ReleaseChannels channels, String channel) {
        if (subscription == null) {
            subscription = channels.subscribe(channel, this::wake);
        }
        return subscription.subscribed();
    }

    synchronized void stopListening() {
        if (subscription != null) {
            subscription.close();
            subscription = null;
        }
    }
}
