package dev.locksmith;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * The entry point to every lock: obtained from {@link Locksmith#builder()} in plain Java, or
 * injected ({@code @Inject LockManager}) in a CDI application, where it is
 * {@code @ApplicationScoped}.
 *
 * <p>Lock objects are cheap views onto Redis state: the same name always means the same lock
 * in every JVM that shares the Redis server and key prefix.
 *
 * <p>A manager that has not connected yet (CDI's, or one built with
 * {@link Locksmith.Builder#failFast(boolean) failFast(false)}, while Redis could not be reached)
 * fails each of its methods but {@link #close()} at once with a {@link LockException} that says
 * why, and keeps connecting in the background.
 */
public interface LockManager extends AutoCloseable {

    /**
     * @param name 1..512 characters, not blank
     * @return the reentrant, non-fair lock of that name
     * @throws IllegalArgumentException if the name is null, blank or longer than 512 characters
     */
    DistributedLock getLock(String name);

    /**
     * @param name 1..512 characters, not blank
     * @return the fair lock of that name: waiters across all JVMs acquire in the order they asked
     * @throws IllegalArgumentException if the name is null, blank or longer than 512 characters
     */
    DistributedLock getFairLock(String name);

    /**
     * @param name 1..512 characters, not blank
     * @return the read/write lock of that name
     * @throws IllegalArgumentException if the name is null, blank or longer than 512 characters
     */
    DistributedReadWriteLock getReadWriteLock(String name);

    /**
     * The multi-lock over {@code locks}, typed as a single lock for callers written before
     * {@link #getMultiLockOf(DistributedLock...)}, which returns the same lock with its own type
     * (the lock returned here is a {@link DistributedMultiLock} too). Where a set of names has
     * no single answer, the {@code DistributedLock} methods answer as follows:
     * <ul>
     *   <li>{@link DistributedLock#fencingToken()} throws {@link UnsupportedOperationException}:
     *       each lock has its own token, which {@link DistributedMultiLock#fencingTokens()} gives
     *       (or each lock's own {@code fencingToken()});</li>
     *   <li>{@link DistributedLock#getHoldCount()} is the multi-lock's own reentrant count, as
     *       {@link DistributedMultiLock#getHoldCount()};</li>
     *   <li>{@link DistributedLock#isLocked()} is true when any of its locks is held, by any thread
     *       in any JVM: while it is, the multi-lock cannot be taken without waiting (unless the
     *       current thread is the holder).</li>
     * </ul>
     *
     * @param locks the locks to hold together, of any kind
     * @return a lock that acquires all of them within the wait time, or none
     * @throws IllegalArgumentException if no lock is given or one is null
     */
    DistributedLock getMultiLock(DistributedLock... locks);

    /**
     * @param locks the locks to hold together, of any kind; a multi-lock among them adds its own locks
     * @return a multi-lock that acquires all of them within the wait time, or none
     * @throws IllegalArgumentException      if no lock is given or one is null
     * @throws UnsupportedOperationException from an implementation whose {@link #getMultiLock(DistributedLock...)}
     *                                       returns no {@link DistributedMultiLock}
     */
    default DistributedMultiLock getMultiLockOf(DistributedLock... locks) {
        DistributedLock multi = getMultiLock(locks);
        if (multi instanceof DistributedMultiLock typed) {
            return typed;
        }
        throw new UnsupportedOperationException(getClass().getName() + " returns " + multi.getClass().getName()
                + " from getMultiLock, which is no DistributedMultiLock; use getMultiLock and each lock's own"
                + " fencingToken()");
    }

    /**
     * Runs {@code action} while holding the lock of that name. Inside a JTA transaction the
     * release waits until the transaction completes.
     *
     * @param name     the lock's name
     * @param waitTime how long to wait for the lock
     * @param action   what to run while holding it
     * @param <T>      what the action returns
     * @return what the action returned
     * @throws LockTimeoutException if the lock was not acquired within {@code waitTime}
     * @throws Exception            whatever the action threw; the lock is released either way
     */
    <T> T callWithLock(String name, Duration waitTime, Callable<T> action) throws Exception;

    /**
     * Runs {@code action} while holding the reentrant lock of that name, taken, kept and given up
     * as {@code options} say: a fixed lease (the most the lock is kept), a minimum hold (the least),
     * and whether a lock held elsewhere skips the action instead of failing. A call with a minimum
     * hold or a skip records its run ({@link LastRun}) for {@link #describe(String)} and
     * {@link #describeJob(String)}, under {@link CallOptions#job(String)} when set. Inside a JTA
     * transaction the release waits until the transaction completes, and then keeps the lock for
     * what is left of the minimum hold.
     *
     * <pre>{@code
     * scheduler.scheduleAtFixedRate(() -> locks.callWithLock("cleanup",
     *         CallOptions.waitingUpTo(Duration.ZERO).minHold(Duration.ofSeconds(50)).skipWhenHeld(),
     *         () -> cleanup.run()), 0, 1, TimeUnit.MINUTES);
     * }</pre>
     *
     * @param name    the lock's name
     * @param options how to take and keep it
     * @param action  what to run while holding it
     * @param <T>     what the action returns
     * @return what the action returned, or null when it was skipped
     * @throws LockTimeoutException if the lock was not acquired within the wait time and the
     *                              options do not skip
     * @throws Exception            whatever the action threw; the lock is released (or kept for
     *                              the minimum hold) either way
     * @throws UnsupportedOperationException from an implementation that only knows the plain
     *                              {@code callWithLock} and options that need more than a wait
     */
    default <T> T callWithLock(String name, CallOptions options, Callable<T> action) throws Exception {
        if (options.leaseTime() != null || !options.minHold().isZero() || options.whenHeld() != WhenHeld.FAIL) {
            throw new UnsupportedOperationException(getClass().getName() + " supports only a wait time: " + options);
        }
        return callWithLock(name, options.waitTime(), action);
    }

    /**
     * Says who holds the lock of this name now, of any kind, since when, how long its lease has
     * left, and how many wait: the answer to "who holds this lock?" when a job is stuck. Any
     * process can ask; each holder's process is described by host, process id and application
     * name. Between a release and the next holder, the reentrant lock or the write lock may stand
     * offered to one waiting process, which nobody else may take meanwhile: then
     * {@link LockInfo#offer()} names that process, since when and for how long at most. One Redis
     * round trip, plus one short read per distinct holding (or offered) process.
     *
     * @param name the lock's name, 1..512 characters, not blank
     * @return the lock's state as Redis knows it at this moment
     * @throws IllegalArgumentException if the name is not a valid lock name
     * @throws LockException            if Redis cannot be reached
     * @throws IllegalStateException    if this manager is closed
     */
    LockInfo describe(String name);

    /**
     * Says when a job last ran and how its recent runs went, whatever lock names ran them: a job
     * named apart from its lock ({@code @Locked(value = "interest:{slot}", job = "interest")}) is
     * recorded under its own name, so this answers for every slot. For a job not named apart the
     * job's name is the lock's. {@link #describe(String)} with the job's name shows the same last
     * run. One Redis round trip (one per master with RedLock).
     *
     * <pre>{@code
     * JobInfo interest = locks.describeJob("interest");
     * interest.lastRun().ifPresent(run -> log.info("last ran " + run.started() + " on " + run.process()));
     * }</pre>
     *
     * @param job the job's name, 1..512 characters, not blank
     * @return its latest run and its recent ones, newest first; empty when Redis remembers none
     * @throws IllegalArgumentException      if the name is not a valid job name
     * @throws LockException                 if Redis cannot be reached
     * @throws IllegalStateException         if this manager is closed
     * @throws UnsupportedOperationException from an implementation that keeps no job records
     */
    default JobInfo describeJob(String job) {
        throw new UnsupportedOperationException(getClass().getName() + " keeps no job records");
    }

    /**
     * Fenced writes for code that manages its own JDBC transactions: the {@link Fence} in
     * {@code table}, whose refusals this manager also records (the metric
     * {@code locksmith.lock.fence.refusals} and the Flight Recorder event
     * {@code dev.locksmith.FencedWriteRefused}).
     *
     * <pre>{@code
     * Fence fence = locks.fence(Fence.DEFAULT_TABLE);
     * fence.check(connection, lock);   // first statement under the lock, auto-commit off
     * }</pre>
     *
     * @param table the fence table's name, an SQL identifier (see {@link Fence#table(String)})
     * @return the fence in that table
     * @throws IllegalArgumentException if {@code table} is no plain SQL identifier
     */
    default Fence fence(String table) {
        return Fence.table(table);
    }

    /**
     * Closes the manager; idempotent. It is a barrier: it refuses new calls, wakes every thread
     * waiting for one of its locks (each then throws {@link IllegalStateException}), and waits for
     * the acquisitions and releases under way, at most two command timeouts. Then it stops the
     * watchdog, releases every lock this manager still holds (one granted while it closed
     * included: its caller gets {@link IllegalStateException}, not the lock), and closes the
     * connections. After it returns, no acquisition of this manager returns true and nothing it
     * granted is left in Redis, except what Redis could not be asked to release, which is logged
     * by name and expires with its lease. Every lock of this manager throws
     * {@link IllegalStateException} afterwards.
     *
     * <p>Closing the connections and stopping the Redis client's threads is bounded too: each of
     * the two steps is waited for at most 2 seconds. What has not stopped by then (a thread stuck
     * in a task) is named in a WARNING log record, and this method returns without it.
     */
    @Override
    void close();
}
