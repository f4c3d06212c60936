package dev.locksmith.faults;

import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.internal.jta.ReleaseAfterCompletion;
import dev.locksmith.internal.manager.DefaultLockManager;
import dev.locksmith.testing.RedisNode;
import dev.locksmith.testing.RespClient;
import dev.locksmith.testing.StallingProxy;
import dev.locksmith.testing.Transactions;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * What one run of a scenario works with: managers that stand for processes (each connected
 * through the proxy, with a short lease and command timeout and a scheduler of its own), threads
 * whose results are recorded, the ledger of critical sections, and waits that give up instead of
 * failing (a fault may keep a state from ever being reached; the harness then checks what
 * followed).
 *
 * <p>Threads: the scenario's body runs on the runner's thread ({@code main}); {@link #start}
 * runs a step on a thread of its own. Both record their result as an {@link Outcome}.
 */
final class ScenarioContext {
    private final String uri;
    private final boolean redLock;
    private final RedisNode watched;
    private final Duration lease;
    private final Duration commandTimeout;
    private final Ledger ledger = new Ledger();
    private final List<LockManager> managers = new CopyOnWriteArrayList<>();
    private final Map<LockManager, ScheduledThreadPoolExecutor> schedulers = new ConcurrentHashMap<>();
    private final Set<LockManager> closing = ConcurrentHashMap.newKeySet();
    private final List<Outcome> outcomes = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final Map<Thread, LockManager> managerOf = new ConcurrentHashMap<>(); // of each started thread
    private final List<String> unreached = new CopyOnWriteArrayList<>();
    private final Map<String, Long> releasedAt = new ConcurrentHashMap<>();
    private final List<Wait> waits = new CopyOnWriteArrayList<>();
    private final Map<String, StallingProxy> stalling = new ConcurrentHashMap<>();
    private final int proxyPort;

    /**
     * @param uri            what the managers connect to (the proxy, or for RedLock the proxy and two masters)
     * @param redLock        true for RedLock mode
     * @param watched        a server the scenario may read directly to see waiters (never through the proxy)
     * @param lease          the managers' lease
     * @param commandTimeout the managers' command timeout
     * @param proxyPort      the fault proxy's port, for a manager that reaches it through a stalling proxy
     */
    ScenarioContext(String uri, boolean redLock, RedisNode watched, Duration lease, Duration commandTimeout,
                    int proxyPort) {
        this.proxyPort = proxyPort;
        this.uri = uri;
        this.redLock = redLock;
        this.watched = watched;
        this.lease = lease;
        this.commandTimeout = commandTimeout;
    }

    /** One caller's result: normal (no failure) or what it threw. */
    record Outcome(String who, Throwable failure, boolean managerClosing, List<Class<?>> allowed) {
        /**
         * @return null when the result is one the docs allow, else why not
         */
        String undocumented() {
            if (failure == null || failure instanceof LockException) {
                return null;
            }
            if (failure instanceof IllegalStateException && managerClosing) {
                return null;
            }
            if (allowed.stream().anyMatch(type -> type.isInstance(failure))) {
                return null;
            }
            return who + " got " + failure + (managerClosing ? "" : " (its manager was not closing)");
        }
    }

    /**
     * One wait for a lock that a holder's release should have ended.
     *
     * @param lock         the lock's name
     * @param who          the waiter
     * @param acquired     whether it got the lock (false: its wait ran out)
     * @param releasedAt   System.nanoTime() of the latest release of the lock by a holder, before the wait ended
     * @param endedAt      System.nanoTime() when the wait ended
     */
    record Wait(String lock, String who, boolean acquired, long releasedAt, long endedAt) {
    }

    /** A step of a scenario, run on one thread. */
    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    /**
     * Builds a manager standing for one process, named {@code role} (its application name).
     *
     * @throws LockException if it cannot connect (a fault on its handshake)
     */
    LockManager manager(String role) {
        return manager(role, uri);
    }

    /**
     * A manager standing for a process that can freeze: it reaches the fault proxy through a
     * {@link StallingProxy}, which {@link #stall} silences in both directions (its connections stay
     * open, as a process stopped by {@code SIGSTOP} or a long GC pause keeps them).
     */
    LockManager freezableManager(String role) {
        StallingProxy proxy = StallingProxy.forwardingTo(proxyPort);
        stalling.put(role, proxy);
        return manager(role, proxy.uri());
    }

    /** Freezes the process {@code role} (see {@link #freezableManager}). */
    void stall(String role) {
        stalling.get(role).stall();
    }

    /** Lets the process {@code role} run again. */
    void resume(String role) {
        stalling.get(role).resume();
    }

    /** Closes the stalling proxies, after their managers closed. */
    void closeStallingProxies() {
        stalling.values().forEach(StallingProxy::close);
    }

    private LockManager manager(String role, String managerUri) {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "fault-scheduler-" + role);
            thread.setDaemon(true);
            return thread;
        });
        scheduler.setRemoveOnCancelPolicy(true);
        LockManager manager;
        try {
            manager = Locksmith.builder().redisUri(managerUri).mode(redLock ? RedisMode.REDLOCK : RedisMode.STANDALONE)
                    .leaseTime(lease).commandTimeout(commandTimeout).watchdogScheduler(scheduler)
                    .applicationName(role).telemetry(false).build();
        } catch (RuntimeException e) {
            scheduler.shutdownNow();
            throw e;
        }
        managers.add(manager);
        schedulers.put(manager, scheduler);
        return manager;
    }

    /**
     * A manager whose {@code callWithLock} releases after the current JTA transaction (Narayana)
     * completes, as in a server.
     */
    LockManager transactionalManager(String role) {
        DefaultLockManager manager = (DefaultLockManager) manager(role);
        TransactionSynchronizationRegistry registry = Transactions.registry();
        manager.deferUnlocksWith(ReleaseAfterCompletion.create(manager.leases(),
                type -> type == TransactionSynchronizationRegistry.class ? registry : null));
        return manager;
    }

    /**
     * @return the ledger the critical sections enter and leave
     */
    Ledger ledger() {
        return ledger;
    }

    /**
     * Runs {@code step} on a thread of its own and records its result.
     *
     * @param who     names the caller in reports
     * @param manager the manager whose closing makes {@link IllegalStateException} a documented result
     * @param allowed further exception types the docs allow for this step
     * @return the thread
     */
    Thread start(String who, LockManager manager, Step step, Class<?>... allowed) {
        Thread thread = new Thread(() -> call(who, manager, step, allowed), "fault-run-" + who);
        thread.setDaemon(true);
        threads.add(thread);
        if (manager != null) {
            managerOf.put(thread, manager);
        }
        thread.start();
        return thread;
    }

    /**
     * Runs {@code step} on this thread and records its result; never throws.
     *
     * @return true if it ended normally
     */
    boolean call(String who, LockManager manager, Step step, Class<?>... allowed) {
        try {
            step.run();
            outcomes.add(new Outcome(who, null, false, List.of()));
            return true;
        } catch (Throwable e) {
            outcomes.add(new Outcome(who, e, manager != null && closing.contains(manager), Arrays.asList(allowed)));
            return false;
        }
    }

    /**
     * Records what the scenario's body threw on the runner's thread.
     */
    void bodyFailed(Throwable failure) {
        outcomes.add(new Outcome("main", failure, !closing.isEmpty(), List.of()));
    }

    /**
     * Closes a manager in the middle of a scenario (its callers may then get
     * {@link IllegalStateException}); its own result is recorded as {@code who}'s.
     */
    void close(String who, LockManager manager) {
        closing.add(manager);
        call(who, manager, manager::close);
    }

    /**
     * Waits until {@code condition} holds, up to {@code timeout}; a fault may prevent it, so this
     * gives up quietly (and notes it, for the run without a fault, where every wait must succeed).
     *
     * @return true if it held in time
     */
    boolean await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            try {
                if (condition.getAsBoolean()) {
                    return true;
                }
            } catch (RuntimeException e) {
                // not yet
            }
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
        unreached.add(what);
        return false;
    }

    /**
     * @return whether a thread of {@code manager} sleeps waiting for lock {@code name} now, as the
     *         manager's own lock protocol counts it (in its line, or for a message from Redis)
     */
    static boolean sleeps(LockManager manager, String name) {
        return ((DefaultLockManager) manager).sleepingWaiters(name).total() > 0;
    }

    /**
     * @return whether a thread of the manager that {@code thread} was {@link #start started} with
     *         sleeps waiting for lock {@code name} now (see {@link #sleeps(LockManager, String)})
     */
    boolean sleeps(Thread thread, String name) {
        LockManager manager = managerOf.get(thread);
        return manager != null && sleeps(manager, name);
    }

    /**
     * @return whether a thread of {@code manager} sleeps in the manager's line for lock
     *         {@code name}, where a release of its own process may hand the lock to it (not
     *         merely waiting for a reply)
     */
    static boolean parkedInLine(LockManager manager, String name) {
        return ((DefaultLockManager) manager).sleepingWaiters(name).inLine() > 0;
    }

    /**
     * How many processes or threads Redis shows waiting for a lock, read directly from the server
     * (never through the proxy): the ring of the reentrant lock, the ring and queued writers of a
     * read/write lock, the fair queue; under RedLock, the listeners on its release channel.
     */
    long waitersInRedis(String name, FaultScenario.LockKind kind) {
        String base = "locksmith:{" + name + "}";
        if (redLock) {
            List<?> reply = (List<?>) RespClient.call(watched.port(), "PUBSUB", "NUMSUB", base + ":released");
            return Long.parseLong(reply.get(1).toString());
        }
        return switch (kind) {
            case FAIR -> Long.parseLong(String.valueOf(RespClient.call(watched.port(), "LLEN", base + ":queue")));
            case REENTRANT -> {
                Object value = RespClient.call(watched.port(), "GET", base);
                String[] fields = value == null ? new String[0] : value.toString().split("\\|", -1);
                yield fields.length > 4 ? ringSize(fields[4]) : 0;
            }
            case READ_WRITE -> {
                List<?> fields = (List<?>) RespClient.call(watched.port(), "HGETALL", base + ":rw");
                long waiting = 0;
                for (int i = 0; i + 1 < fields.size(); i += 2) {
                    String field = fields.get(i).toString();
                    if (field.startsWith("q:")) {
                        waiting++;
                    } else if (field.equals("o")) {
                        waiting += ringSize(fields.get(i + 1).toString());
                    }
                }
                yield waiting;
            }
        };
    }

    private static long ringSize(String ring) {
        return Arrays.stream(ring.split(",")).filter(entry -> !entry.isEmpty()).count();
    }

    /**
     * Notes that a holder's release of {@code lock} has returned (or thrown): from now on a waiter
     * should get the lock within the bound the docs give.
     */
    void released(String lock) {
        releasedAt.put(lock, System.nanoTime());
    }

    /**
     * Notes the end of a wait for {@code lock}, measured against the latest release noted before it.
     */
    void waited(String lock, String who, boolean acquired) {
        long now = System.nanoTime();
        Long release = releasedAt.get(lock);
        if (release != null) {
            waits.add(new Wait(lock, who, acquired, release, now));
        }
    }

    /** @return the waits that ended after a release */
    List<Wait> waits() {
        return List.copyOf(waits);
    }

    /** @return the managers built in this run, in order */
    List<LockManager> managers() {
        return List.copyOf(managers);
    }

    /** @return each manager's scheduler */
    Map<LockManager, ScheduledThreadPoolExecutor> schedulers() {
        return schedulers;
    }

    /** Marks a manager as closing, before the runner closes it at the end. */
    void closingAtEnd(LockManager manager) {
        closing.add(manager);
    }

    /** @return every result recorded */
    List<Outcome> outcomes() {
        return List.copyOf(outcomes);
    }

    /** @return the scenario's own threads */
    List<Thread> threads() {
        return List.copyOf(threads);
    }

    /** @return the waits that gave up */
    List<String> unreached() {
        return new ArrayList<>(unreached);
    }

    /** @return the managers' command timeout */
    Duration commandTimeout() {
        return commandTimeout;
    }
}
