package dev.locksmith.internal.lock.local;

import dev.locksmith.internal.redis.ReleaseChannels;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The fair lock's waiters of this process ({@code QueueWaiting}), each woken by name: a release
 * of the fair lock publishes the owner id whose turn it is, so only that waiter asks Redis. A
 * message to everyone ({@code *}: a force-unlock, a kept lock, a closing manager) wakes them all.
 * Releases in this process do not wake them: Redis names the next owner, wherever it waits.
 *
 * <p>Guarded by the mutex of the {@link LocalContention} it belongs to, which calls
 * {@link #heard} and {@link #wakeEveryone()} with that mutex held.
 */
public final class QueueTurns {
    private final ReentrantLock mutex;
    private final Condition turnCame;
    private final Set<String> waiting = new HashSet<>();
    private final Set<String> named = new HashSet<>(); // waiting owners a message named since they last looked
    private long everyoneWoken;
    private int asleep; // in await's wait

    public QueueTurns(ReentrantLock mutex) {
        this.mutex = mutex;
        this.turnCame = mutex.newCondition();
    }

    public void join(String owner) {
        mutex.lock();
        try {
            waiting.add(owner);
        } finally {
            mutex.unlock();
        }
    }

    public void leave(String owner) {
        mutex.lock();
        try {
            waiting.remove(owner);
            named.remove(owner);
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return how many messages to everyone came so far; what {@link #await} compares against
     */
    public long everyoneWoken() {
        mutex.lock();
        try {
            return everyoneWoken;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Sleeps until a message names {@code owner}, a message to everyone came since
     * {@code seenEveryone} was read ({@link #everyoneWoken()}), or the timeout.
     */
    public void await(String owner, long seenEveryone, long timeoutNanos, Waiting waiting) throws InterruptedException {
        mutex.lock();
        try {
            long deadline = System.nanoTime() + timeoutNanos;
            long left = timeoutNanos;
            while (!named.remove(owner) && everyoneWoken == seenEveryone && left > 0) {
                asleep++;
                try {
                    waiting.await(turnCame, left);
                } finally {
                    asleep--;
                }
                left = deadline - System.nanoTime();
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return how many fair waiters sleep in {@link #await} now, having given up the mutex; the
     *         caller holds the mutex
     */
    int asleep() {
        return asleep;
    }

    /**
     * A message from Redis on the lock's channels; the caller holds the mutex.
     */
    public void heard(String message) {
        if (ReleaseChannels.EVERYONE.equals(message)) {
            wakeEveryone();
        } else if (waiting.contains(message)) {
            named.add(message);
            turnCame.signalAll();
        }
    }

    /**
     * Wakes every fair waiter; the caller holds the mutex.
     */
    void wakeEveryone() {
        everyoneWoken++;
        turnCame.signalAll();
    }
}
