package dev.locksmith.internal.manager;

import dev.locksmith.LockException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The connect thread of a {@link ManagerConnection}: an attempt at once, then one after each
 * pause, from {@link ManagerConnection#FIRST_PAUSE} doubled up to
 * {@link ManagerConnection#LONGEST_PAUSE}, until one succeeds or the {@link ConnectionState}
 * closes. Owns the thread and what the log says about failed attempts.
 */
final class ConnectRetries {
    // The logger of the connection operators know, whichever class of it says the line.
    private static final Logger LOG = System.getLogger(ManagerConnection.class.getName());

    private final Supplier<DefaultLockManager> connect;
    private final String where;
    private final ConnectionState state;
    private final Thread thread;

    /**
     * @param connect one attempt: a connected manager, or an exception saying why not
     * @param where   the Redis deployment, without secrets, for messages
     * @param state   told of each attempt's outcome
     */
    ConnectRetries(Supplier<DefaultLockManager> connect, String where, ConnectionState state) {
        this.connect = connect;
        this.where = where;
        this.state = state;
        this.thread = new Thread(this::retryUntilConnectedOrClosed, "locksmith-connect");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /**
     * Waits at most {@code attemptBound} for the thread to end, unless called on it, and says in
     * a WARNING when it has not.
     */
    void awaitEnd(Duration attemptBound) {
        if (thread == Thread.currentThread()) {
            return;
        }
        try {
            thread.join(attemptBound.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.log(Level.WARNING, "Locksmith's connect thread " + thread.getName() + " is still in an attempt"
                    + " to reach Redis at " + where + " after " + attemptBound.toMillis() + " ms; it closes what"
                    + " it connects and ends by itself");
        }
    }

    private void retryUntilConnectedOrClosed() {
        Duration pause = Duration.ZERO; // the first attempt at once
        while (state.awaitPause(pause)) {
            DefaultLockManager connected;
            try {
                connected = connect.get();
            } catch (RuntimeException | LinkageError e) {
                RuntimeException failure = e instanceof RuntimeException runtime ? runtime
                        : new LockException("Connecting to Redis at " + where + " failed: " + e, e);
                String previous = state.lastMessage();
                state.failed(failure);
                if (previous == null) {
                    LOG.log(Level.WARNING, "Locksmith cannot connect to Redis at " + where + " yet: " + failure.getMessage()
                            + ". Every lock call fails with a LockException until it can, and the readiness check says"
                            + " DOWN; it tries again after " + ManagerConnection.FIRST_PAUSE.toMillis()
                            + " ms, then at most every " + ManagerConnection.LONGEST_PAUSE.toSeconds() + " s");
                } else {
                    // A new reason is news; the same one again every few seconds is not.
                    LOG.log(Objects.equals(previous, failure.getMessage()) ? Level.DEBUG : Level.WARNING,
                            "Locksmith still cannot connect to Redis at " + where + " (attempt " + state.failedAttempts()
                                    + "): " + failure.getMessage());
                }
                pause = pause.isZero() ? ManagerConnection.FIRST_PAUSE
                        : pause.multipliedBy(2).compareTo(ManagerConnection.LONGEST_PAUSE) > 0
                        ? ManagerConnection.LONGEST_PAUSE : pause.multipliedBy(2);
                continue;
            }
            state.connected(connected);
            return;
        }
    }
}
