package dev.locksmith.internal.store.redlock;

import dev.locksmith.LockException;
import dev.locksmith.internal.redis.RedisResources;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Brings a RedLock master that did not answer at start into locking once it answers: one
 * attempt a second, on a thread of its own, until one succeeds or the store closes. Not on
 * Lettuce's event executor: a connect to a master that accepts and stays silent is timed out by
 * a task of that executor, and a connect blocking its thread would wait forever. {@link #stop}
 * ends it for good and waits for a connect under way, so that no thread of the manager is still
 * connecting when its {@code close()} returns.
 */
final class MasterRejoin {
    private static final long RETRY_MILLIS = 1_000;
    private static final Logger LOG = System.getLogger(MasterRejoin.class.getName());

    /** One try to connect the master and let it take part; throws {@link LockException} when it does not answer. */
    @FunctionalInterface
    interface Attempt {
        void run();
    }

    private final String master;
    private final Attempt attempt;
    private final Runnable abandon;
    private final Thread thread;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private volatile boolean abandoned;

    /**
     * @param master  the master's description, for the logs and the thread's name
     * @param attempt connects it and lets it take part
     * @param abandon closes what an attempt connected after {@link #stop} stopped waiting for it
     */
    MasterRejoin(RedisResources resources, String master, Attempt attempt, Runnable abandon) {
        this.master = master;
        this.attempt = attempt;
        this.abandon = abandon;
        this.thread = resources.newThread(this::tryUntilJoinedOrStopped, "locksmith-rejoin " + master);
    }

    /**
     * Starts trying, the first time a second from now.
     */
    void start() {
        thread.start();
    }

    private void tryUntilJoinedOrStopped() {
        try {
            while (!stopping.await(RETRY_MILLIS, TimeUnit.MILLISECONDS)) {
                try {
                    attempt.run();
                } catch (LockException e) {
                    LOG.log(Level.DEBUG, master + " still does not answer: " + e.getMessage());
                    continue;
                }
                if (abandoned) {
                    abandon.run();
                } else if (stopping.getCount() > 0) {
                    LOG.log(Level.INFO, master + " answers again and takes part in locking from now on");
                }
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops trying, and waits for a connect under way.
     *
     * @param patience how long a connect may still take: its timeout and a margin
     */
    void stop(Duration patience) {
        stopping.countDown();
        try {
            thread.join(patience.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            abandoned = true;
            LOG.log(Level.WARNING, "Closing: a connect to " + master + " under way did not end within "
                    + patience.toMillis() + " ms; its thread closes what it connects, and ends, when that connect"
                    + " ends");
        }
    }
}
