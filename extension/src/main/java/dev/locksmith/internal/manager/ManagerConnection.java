package dev.locksmith.internal.manager;

import dev.locksmith.LockException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The way to a connected {@link DefaultLockManager} for a manager that must exist before Redis
 * answers (a CDI application that deploys while Redis is down): a first attempt at once, then,
 * while Redis cannot be reached, one attempt after each pause, all on a thread of its own, until
 * one succeeds or {@link #close()} stops it; the starting thread waits a bounded time for the first.
 *
 * <p>Where it stands is a {@link ConnectionState}; the attempts are {@link ConnectRetries}'.
 * Threads: the starting thread waits for the first attempt; the connect thread (a daemon thread
 * of its own, {@code locksmith-connect}, as docs/configuration.md says) makes every attempt and moves to
 * {@code CONNECTED}; any caller reads {@link #manager()}; the closing thread moves to
 * {@code CLOSED}, wakes the connect thread from its pause and closes what was connected. A connect
 * that succeeds after the close closes its manager again itself.
 */
final class ManagerConnection implements AutoCloseable {
    private static final Logger LOG = System.getLogger(ManagerConnection.class.getName());
    /** The pause before the first retry, doubled after each failure up to {@link #LONGEST_PAUSE}. */
    static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
    static final Duration LONGEST_PAUSE = Duration.ofSeconds(10);

    private final Duration attemptBound;
    private final ConnectionState state;
    private final ConnectRetries retries;

    private ManagerConnection(Supplier<DefaultLockManager> connect, String where, Duration attemptBound) {
        this.attemptBound = attemptBound;
        this.state = new ConnectionState(where);
        this.retries = new ConnectRetries(connect, where, state);
    }

    /**
     * Starts the connect thread, which tries at once, then after each pause, and waits at most
     * {@code firstAttemptWait} for its first attempt to succeed or fail. The wait is bounded, not
     * the attempt itself: the application's startup must not wait longer for a slow Redis.
     *
     * @param connect          one attempt: a connected manager, or an exception saying why not
     * @param where            the Redis deployment, without secrets, for messages
     * @param attemptBound     how long one attempt may take at most (the connect timeout and the close
     *                         of a failed attempt), for {@link #close()}'s wait
     * @param firstAttemptWait how long the caller waits for the first attempt
     * @return the connection, connected, failed once and retrying, or still in its first attempt
     */
    static ManagerConnection start(Supplier<DefaultLockManager> connect, String where, Duration attemptBound,
                                   Duration firstAttemptWait) {
        ManagerConnection connection = new ManagerConnection(connect, where, attemptBound);
        connection.retries.start();
        if (!connection.awaitFirstAttempt(firstAttemptWait)) {
            LOG.log(Level.INFO, "Locksmith's first connection to Redis at " + where + " is still under way after "
                    + firstAttemptWait.toMillis() + " ms; it goes on in the background, and a lock call made"
                    + " meanwhile waits for it, at most " + attemptBound.toMillis() + " ms");
        }
        return connection;
    }

    /**
     * @return how long one attempt may take at most
     */
    Duration attemptBound() {
        return attemptBound;
    }

    /**
     * @return true once the first attempt succeeded or failed (or the connection was closed), false
     *         when {@code wait} passed first
     */
    boolean awaitFirstAttempt(Duration wait) {
        return state.awaitFirstAttempt(wait);
    }

    /**
     * @return the connected manager, once the first attempt is over: a call made during it waits for it,
     *         at most the attempt's bound
     * @throws LockException while there is none yet, with the last attempt's failure and what happens next
     * @throws IllegalStateException once closed
     */
    DefaultLockManager manager() {
        DefaultLockManager connected = state.served();
        if (connected != null) {
            return connected; // every lock call comes here: no lock taken once connected
        }
        awaitFirstAttempt(attemptBound);
        return managerNow();
    }

    /**
     * @return the connected manager, without waiting for an attempt under way
     * @throws LockException while there is none yet, with the last attempt's failure and what happens next
     * @throws IllegalStateException once closed
     */
    DefaultLockManager managerNow() {
        return state.managerNow();
    }

    /**
     * @return how many threads wait for the first attempt now (the starting thread, early calls)
     */
    int awaitingFirstAttempt() {
        return state.awaitingFirstAttempt();
    }

    /**
     * @return the connected manager, or null while connecting or once closed
     */
    DefaultLockManager managerIfConnected() {
        return state.managerIfConnected();
    }

    /**
     * Runs {@code action} on the manager before any call can use it: now if it is connected,
     * otherwise on the connect thread, before the connection counts as made.
     *
     * @param action quick wiring, such as the release after JTA completion; must not block
     */
    void whenConnected(Consumer<DefaultLockManager> action) {
        state.whenConnected(action);
    }

    /**
     * Stops trying (the attempt under way, bounded by its connect timeout, is waited for) and closes
     * the connected manager. Idempotent.
     */
    @Override
    public void close() {
        if (state.close()) {
            retries.awaitEnd(attemptBound);
        }
    }
}
