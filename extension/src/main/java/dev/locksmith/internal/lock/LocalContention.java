package dev.locksmith.internal.lock;

import dev.locksmith.internal.redis.ReleaseChannels;
import dev.locksmith.internal.redis.ReleaseChannels.Subscription;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;

/**
 * The threads of this process that want one lock (one release channel). For most kinds only
 * the thread holding the gate contends in Redis while the others queue on the gate in arrival
 * order; fair-lock waiters each queue in Redis instead. Release messages wake waiters: a
 * message {@code *} wakes everyone, a message naming an owner wakes that owner only.
 */
final class LocalContention {
    private static final String EVERYONE = "*";

    private final String channel;
    private final Semaphore gate = new Semaphore(1, true);
    private final Set<String> queuedOwners = new HashSet<>();
    private final Set<String> addressed = new HashSet<>();
    private long wakeUps;
    private long generalWakeUps;
    private Subscription subscription;
    int users; // guarded by the ContentionRegistry's map

    LocalContention(String channel) {
        this.channel = channel;
    }

    String channel() {
        return channel;
    }

    /**
     * @return true once this thread is the local contender; false if the deadline passed first
     */
    boolean enterGate(Deadline deadline, Waiting waiting) throws InterruptedException {
        if (deadline.isInfinite()) {
            waiting.acquire(gate);
            return true;
        }
        return waiting.tryAcquire(gate, deadline);
    }

    void leaveGate() {
        gate.release();
    }

    synchronized long wakeUps() {
        return wakeUps;
    }

    synchronized long generalWakeUps() {
        return generalWakeUps;
    }

    /**
     * @param message {@code *} for everyone, or the owner id whose turn it is
     */
    synchronized void wake(String message) {
        wakeUps++;
        if (EVERYONE.equals(message)) {
            generalWakeUps++;
        } else if (queuedOwners.contains(message)) {
            addressed.add(message);
        }
        notifyAll();
    }

    /**
     * Waits until any wake-up has come since {@code seen} was read, or the timeout.
     */
    synchronized void awaitWakeUp(long seen, long timeoutNanos, Waiting waiting) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        long left = timeoutNanos;
        while (wakeUps == seen && left > 0) {
            waiting.waitOn(this, left);
            left = deadline - System.nanoTime();
        }
    }

    synchronized void joinQueue(String owner) {
        queuedOwners.add(owner);
    }

    synchronized void leaveQueue(String owner) {
        queuedOwners.remove(owner);
        addressed.remove(owner);
    }

    /**
     * Waits until a message names {@code owner}, a message wakes everyone (since {@code seenGeneral}
     * was read), or the timeout.
     */
    synchronized void awaitTurn(String owner, long seenGeneral, long timeoutNanos, Waiting waiting)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        long left = timeoutNanos;
        while (!addressed.remove(owner) && generalWakeUps == seenGeneral && left > 0) {
            waiting.waitOn(this, left);
            left = deadline - System.nanoTime();
        }
    }

    /**
     * @return completes when this process hears releases of the lock
     */
    synchronized CompletionStage<Void> listen(ReleaseChannels channels) {
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
