package dev.locksmith.internal.manager;

import dev.locksmith.LockException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The way to a connected {@link DefaultLockManager} for a manager that must exist before Redis
 * answers (a CDI application that deploys while Redis is down): a first attempt at once, then,
 * while Redis cannot be reached, one attempt after each pause, all on a thread of its own, until
 * one succeeds or {@link #close()} stops it; the starting thread waits a bounded time for the first.
 *
 * <p>States, each moved under {@link #mutex} only: {@code CONNECTING → CONNECTED | CLOSED},
 * {@code CONNECTED → CLOSED}. Threads: the starting thread waits for the first attempt; the
 * connect thread (from the container's thread factory where there is one) makes every attempt and
 * moves to {@code CONNECTED}; any caller reads {@link #manager()}; the closing thread moves to
 * {@code CLOSED}, wakes the connect thread from its pause and closes what was connected. A connect
 * that succeeds after the close closes its manager again itself.
 */
final class ManagerConnection implements AutoCloseable {
    private static final Logger LOG = System.getLogger(ManagerConnection.class.getName());
    /** The pause before the first retry, doubled after each failure up to {@link #LONGEST_PAUSE}. */
    static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
    static final Duration LONGEST_PAUSE = Duration.ofSeconds(10);

    private enum State { CONNECTING, CONNECTED, CLOSED }

    private final Supplier<DefaultLockManager> connect;
    private final String where;
    private final Duration attemptBound;
    private final ReentrantLock mutex = new ReentrantLock();
    private final Condition closing = mutex.newCondition();
    private final Condition settled = mutex.newCondition();
    private final List<Consumer<DefaultLockManager>> onConnected = new ArrayList<>();
    private State state = State.CONNECTING;
    private DefaultLockManager manager;
    /** {@link #manager} while {@code CONNECTED}, else null: read without {@link #mutex} by {@link #manager()}. */
    private volatile DefaultLockManager served;
    private RuntimeException lastFailure;
    private int failedAttempts;
    private int awaitingFirstAttempt;
    private Thread retries;

    private ManagerConnection(Supplier<DefaultLockManager> connect, String where, Duration attemptBound) {
        this.connect = connect;
        this.where = where;
        this.attemptBound = attemptBound;
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
        connection.startRetries();
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
        long left = wait.toNanos();
        boolean interrupted = false;
        mutex.lock();
        try {
            awaitingFirstAttempt++;
            while (state == State.CONNECTING && failedAttempts == 0 && left > 0) {
                try {
                    left = settled.awaitNanos(left);
                } catch (InterruptedException e) {
                    interrupted = true;
                    left = 0;
                }
            }
            return state != State.CONNECTING || failedAttempts > 0;
        } finally {
            awaitingFirstAttempt--;
            mutex.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * @return the connected manager, once the first attempt is over: a call made during it waits for it,
     *         at most the attempt's bound
     * @throws LockException while there is none yet, with the last attempt's failure and what happens next
     * @throws IllegalStateException once closed
     */
    DefaultLockManager manager() {
        DefaultLockManager connected = served;
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
        mutex.lock();
        try {
            return switch (state) {
                case CONNECTED -> manager;
                case CLOSED -> throw new IllegalStateException("This LockManager is closed; build a new one with"
                        + " Locksmith.builder() (or let CDI inject the application's)");
                case CONNECTING -> throw new LockException("Locksmith has not connected to Redis at " + where
                        + " yet (" + (failedAttempts == 0 ? "its first attempt is still under way"
                        : failedAttempts + " attempt(s) failed, the last: " + lastFailure.getMessage())
                        + "); it keeps trying in the background, at most every " + LONGEST_PAUSE.toSeconds() + " s",
                        lastFailure);
            };
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return how many threads wait for the first attempt now (the starting thread, early calls)
     */
    int awaitingFirstAttempt() {
        mutex.lock();
        try {
            return awaitingFirstAttempt;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return the connected manager, or null while connecting or once closed
     */
    DefaultLockManager managerIfConnected() {
        mutex.lock();
        try {
            return state == State.CONNECTED ? manager : null;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Runs {@code action} on the manager before any call can use it: now if it is connected,
     * otherwise on the connect thread, before the connection counts as made.
     *
     * @param action quick wiring, such as the release after JTA completion; must not block
     */
    void whenConnected(Consumer<DefaultLockManager> action) {
        mutex.lock();
        try {
            if (state == State.CONNECTED) {
                action.accept(manager);
            } else if (state == State.CONNECTING) {
                onConnected.add(action);
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Stops trying (the attempt under way, bounded by its connect timeout, is waited for) and closes
     * the connected manager. Idempotent.
     */
    @Override
    public void close() {
        DefaultLockManager connected;
        Thread retrying;
        mutex.lock();
        try {
            if (state == State.CLOSED) {
                return;
            }
            connected = state == State.CONNECTED ? manager : null;
            state = State.CLOSED;
            manager = null;
            served = null;
            retrying = retries;
            closing.signalAll();
            settled.signalAll();
        } finally {
            mutex.unlock();
        }
        if (connected != null) {
            connected.close();
        }
        if (retrying != null && retrying != Thread.currentThread()) {
            try {
                retrying.join(attemptBound.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (retrying.isAlive()) {
                LOG.log(Level.WARNING, "Locksmith's connect thread " + retrying.getName() + " is still in an attempt"
                        + " to reach Redis at " + where + " after " + attemptBound.toMillis() + " ms; it closes what"
                        + " it connects and ends by itself");
            }
        }
    }

    private void startRetries() {
        Thread thread = new Thread(this::retryUntilConnectedOrClosed, "locksmith-connect");
        thread.setDaemon(true);
        mutex.lock();
        try {
            retries = thread;
        } finally {
            mutex.unlock();
        }
        thread.start();
    }

    private void retryUntilConnectedOrClosed() {
        Duration pause = Duration.ZERO; // the first attempt at once
        while (awaitPause(pause)) {
            DefaultLockManager connected;
            try {
                connected = connect.get();
            } catch (RuntimeException | LinkageError e) {
                RuntimeException failure = e instanceof RuntimeException runtime ? runtime
                        : new LockException("Connecting to Redis at " + where + " failed: " + e, e);
                String previous = lastMessage();
                failed(failure);
                if (previous == null) {
                    LOG.log(Level.WARNING, "Locksmith cannot connect to Redis at " + where + " yet: " + failure.getMessage()
                            + ". Every lock call fails with a LockException until it can, and the readiness check says"
                            + " DOWN; it tries again after " + FIRST_PAUSE.toMillis() + " ms, then at most every "
                            + LONGEST_PAUSE.toSeconds() + " s");
                } else {
                    // A new reason is news; the same one again every few seconds is not.
                    LOG.log(Objects.equals(previous, failure.getMessage()) ? Level.DEBUG : Level.WARNING,
                            "Locksmith still cannot connect to Redis at " + where + " (attempt " + lastAttempts()
                                    + "): " + failure.getMessage());
                }
                pause = pause.isZero() ? FIRST_PAUSE
                        : pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
                continue;
            }
            connected(connected);
            return;
        }
    }

    /**
     * @return true after the pause, false once closed
     */
    private boolean awaitPause(Duration pause) {
        long left = pause.toNanos();
        mutex.lock();
        try {
            while (state == State.CONNECTING && left > 0) {
                try {
                    left = closing.awaitNanos(left);
                } catch (InterruptedException e) {
                    // Only close() ends this thread's work; an interrupt from the container ends it too.
                    state = State.CLOSED;
                    Thread.currentThread().interrupt();
                }
            }
            return state == State.CONNECTING;
        } finally {
            mutex.unlock();
        }
    }

    private void connected(DefaultLockManager connected) {
        boolean closed;
        mutex.lock();
        try {
            closed = state == State.CLOSED;
            if (!closed) {
                onConnected.forEach(action -> action.accept(connected));
                onConnected.clear();
                manager = connected;
                state = State.CONNECTED;
                served = connected;
                settled.signalAll();
                if (failedAttempts > 0) {
                    LOG.log(Level.INFO, "Locksmith connected to Redis at " + where + " after " + failedAttempts
                            + " failed attempt(s); the readiness check says UP");
                }
            }
        } finally {
            mutex.unlock();
        }
        if (closed) {
            connected.close();
        }
    }

    private void failed(RuntimeException failure) {
        mutex.lock();
        try {
            lastFailure = failure;
            failedAttempts++;
            settled.signalAll();
        } finally {
            mutex.unlock();
        }
    }

    private String lastMessage() {
        mutex.lock();
        try {
            return lastFailure == null ? null : lastFailure.getMessage();
        } finally {
            mutex.unlock();
        }
    }

    private int lastAttempts() {
        mutex.lock();
        try {
            return failedAttempts;
        } finally {
            mutex.unlock();
        }
    }
}
