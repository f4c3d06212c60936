package dev.locksmith.internal.manager;

import dev.locksmith.LockException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Where a {@link ManagerConnection} stands: {@code CONNECTING} (with the attempts failed so far),
 * {@code CONNECTED} (with its manager) or {@code CLOSED}, and the waits on it (for the first
 * attempt, for the pause between attempts). Owns {@link #mutex}: every move and every read is
 * made under it, except {@link #served()}, which every lock call reads.
 *
 * <p>Moves: {@code CONNECTING → CONNECTED | CLOSED}, {@code CONNECTED → CLOSED}. A connect that
 * succeeds after the close closes its manager again itself.
 */
final class ConnectionState {
    // The logger of the connection operators know, whichever class of it says the line.
    private static final Logger LOG = System.getLogger(ManagerConnection.class.getName());

    private enum State { CONNECTING, CONNECTED, CLOSED }

    private final String where;
    private final ReentrantLock mutex = new ReentrantLock();
    private final Condition closing = mutex.newCondition();
    private final Condition settled = mutex.newCondition();
    private final List<Consumer<DefaultLockManager>> onConnected = new ArrayList<>();
    private State state = State.CONNECTING;
    private DefaultLockManager manager;
    /** {@link #manager} while {@code CONNECTED}, else null: read without {@link #mutex} by {@link #served()}. */
    private volatile DefaultLockManager served;
    private RuntimeException lastFailure;
    private int failedAttempts;
    private int awaitingFirstAttempt;

    /**
     * @param where the Redis deployment, without secrets, for messages
     */
    ConnectionState(String where) {
        this.where = where;
    }

    /**
     * @return the connected manager, read without a lock; null while connecting or once closed
     */
    DefaultLockManager served() {
        return served;
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
     * @return the connected manager
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
                        + "); it keeps trying in the background, at most every "
                        + ManagerConnection.LONGEST_PAUSE.toSeconds() + " s",
                        lastFailure);
            };
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return how many threads wait for the first attempt now
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
     * Runs {@code action} on the manager now if it is connected, otherwise keeps it for
     * {@link #connected}; forgets it once closed.
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
     * Moves to {@code CLOSED}, wakes every wait, then closes the manager that was connected.
     *
     * @return true if this call closed it; false if it was closed already
     */
    boolean close() {
        DefaultLockManager connected;
        mutex.lock();
        try {
            if (state == State.CLOSED) {
                return false;
            }
            connected = state == State.CONNECTED ? manager : null;
            state = State.CLOSED;
            manager = null;
            served = null;
            closing.signalAll();
            settled.signalAll();
        } finally {
            mutex.unlock();
        }
        if (connected != null) {
            connected.close();
        }
        return true;
    }

    /**
     * @return true after the pause, false once closed
     */
    boolean awaitPause(Duration pause) {
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

    /**
     * Runs the actions kept for the connect, then moves to {@code CONNECTED}; once closed, closes
     * {@code connected} instead.
     */
    void connected(DefaultLockManager connected) {
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

    void failed(RuntimeException failure) {
        mutex.lock();
        try {
            lastFailure = failure;
            failedAttempts++;
            settled.signalAll();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return the last failed attempt's message, or null before the first failure
     */
    String lastMessage() {
        mutex.lock();
        try {
            return lastFailure == null ? null : lastFailure.getMessage();
        } finally {
            mutex.unlock();
        }
    }

    int failedAttempts() {
        mutex.lock();
        try {
            return failedAttempts;
        } finally {
            mutex.unlock();
        }
    }
}
