package dev.locksmith.internal.manager;

import dev.locksmith.CallOptions;
import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedMultiLock;
import dev.locksmith.DistributedReadWriteLock;
import dev.locksmith.Fence;
import dev.locksmith.JobInfo;
import dev.locksmith.LockException;
import dev.locksmith.LockInfo;
import dev.locksmith.LockManager;
import dev.locksmith.internal.config.LockSettings;
import dev.locksmith.internal.observe.LockObserver;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * The {@link LockManager} of {@code Locksmith.builder().failFast(false)} and of CDI applications:
 * it exists whether or not Redis answered when it was built, and connects in the background
 * until it does ({@link ManagerConnection}). Once connected, every call goes to the connected
 * {@link DefaultLockManager}; before, a call waits for the first attempt if it is still under way,
 * and otherwise fails at once with a {@link LockException} that says why and that it keeps trying.
 */
public final class ConnectingLockManager implements LockManager {
    private final ManagerConnection connection;

    private ConnectingLockManager(ManagerConnection connection) {
        this.connection = connection;
    }

    /**
     * Connects now if Redis answers, otherwise keeps trying in the background. Waits for the first
     * attempt at most the command timeout plus a second; a slower first attempt goes on in the
     * background, and calls made meanwhile wait for it.
     *
     * @param settings validated settings
     * @param where    the Redis deployment, without secrets, for messages
     * @return the manager, connected or connecting
     */
    public static ConnectingLockManager start(LockSettings settings, String where) {
        // One attempt: the connect, bounded by the command timeout, and closing a failed one's threads.
        Duration attemptBound = settings.commandTimeout().multipliedBy(2).plusSeconds(5);
        // Long enough for a connect bounded by the command timeout, its ACL check and its scripts.
        Duration firstAttemptWait = settings.commandTimeout().plusSeconds(1);
        // Made here, on the caller's thread: in a container the observer asks the application's
        // OpenTelemetry bean for its meter and tracer, which a thread of Locksmith's own cannot create.
        LockObserver observer = settings.telemetry().observer();
        return new ConnectingLockManager(ManagerConnection.start(() -> DefaultLockManager.connect(settings, observer),
                where, attemptBound, firstAttemptWait));
    }

    /**
     * @return the connected manager, or null while Redis has not been reached yet (or once closed)
     */
    public DefaultLockManager connected() {
        return connection.managerIfConnected();
    }

    /**
     * Waits for the first attempt to connect, at most one attempt's bound.
     *
     * @return true if connected; false if the first attempt failed or is still under way
     */
    public boolean awaitFirstAttempt() {
        connection.awaitFirstAttempt(connection.attemptBound());
        return connected() != null;
    }

    /**
     * @return the connected manager, without waiting for a first attempt under way
     * @throws LockException while there is none yet, saying why
     */
    public DefaultLockManager connectedOrFail() {
        return connection.managerNow();
    }

    /**
     * @param action run on the connected manager before any call uses it: now, or when it connects
     */
    public void whenConnected(Consumer<DefaultLockManager> action) {
        connection.whenConnected(action);
    }

    @Override
    public DistributedLock getLock(String name) {
        return connection.manager().getLock(name);
    }

    @Override
    public DistributedLock getFairLock(String name) {
        return connection.manager().getFairLock(name);
    }

    @Override
    public DistributedReadWriteLock getReadWriteLock(String name) {
        return connection.manager().getReadWriteLock(name);
    }

    @Override
    public DistributedLock getMultiLock(DistributedLock... locks) {
        return connection.manager().getMultiLock(locks);
    }

    @Override
    public DistributedMultiLock getMultiLockOf(DistributedLock... locks) {
        return connection.manager().getMultiLockOf(locks);
    }

    @Override
    public <T> T callWithLock(String name, Duration waitTime, Callable<T> action) throws Exception {
        return connection.manager().callWithLock(name, waitTime, action);
    }

    @Override
    public <T> T callWithLock(String name, CallOptions options, Callable<T> action) throws Exception {
        return connection.manager().callWithLock(name, options, action);
    }

    @Override
    public LockInfo describe(String name) {
        return connection.manager().describe(name);
    }

    @Override
    public JobInfo describeJob(String job) {
        return connection.manager().describeJob(job);
    }

    @Override
    public Fence fence(String table) {
        return connection.manager().fence(table);
    }

    /**
     * Stops connecting, or closes the connected manager. Idempotent.
     */
    @Override
    public void close() {
        connection.close();
    }
}
