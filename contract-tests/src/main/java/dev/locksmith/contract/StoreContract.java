package dev.locksmith.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.contract.RedisUnderTest.StoredKey;
import dev.locksmith.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;

/**
 * What every contract shares: managers on the {@link RedisUnderTest} under a key prefix of the
 * test's own, threads to run rivals in, and, after each test, the proof that the test left nothing
 * in Redis under that prefix but what the documentation says stays (each name's fencing counter,
 * and release latches that expire within the command timeout). Extend one of the contracts, not
 * this class: {@link LockContract}, {@link FacadeContract}, {@link JobLockContract},
 * {@link HandOverContract}, {@link RingContract}.
 *
 * <p>Each test gets a prefix of its own ({@code contract-<random>:}), so the contracts can share
 * one Redis with each other and with other data: they read and check only keys under their prefix,
 * and never flush anything.
 */
public abstract class StoreContract {
    /** The watchdog lease of the managers that do not ask for another. */
    protected static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);

    private final String keyPrefix = "contract-" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final List<LockManager> managers = new CopyOnWriteArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private LockManager observer; // asks describe(), holding nothing

    /**
     * @return the Redis this contract runs against; called once per manager, after the test
     *         class's extensions have started
     */
    protected abstract RedisUnderTest redis();

    /**
     * @return the command timeout of the managers that {@link RedisUnderTest#builder()} builds: how
     *         long a release latch may stay after the test (default 5 s, the builder's default;
     *         override if your builder sets another)
     */
    protected Duration commandTimeout() {
        return Duration.ofSeconds(5);
    }

    /**
     * @return this test's key prefix
     */
    protected final String keyPrefix() {
        return keyPrefix;
    }

    /**
     * @return a new manager with the {@link #DEFAULT_LEASE}, closed after the test
     */
    protected final LockManager manager() {
        return manager(DEFAULT_LEASE);
    }

    /**
     * A new manager on the Redis under test, under this test's key prefix: one "process". Several
     * managers of one JVM stand for several processes, since nothing but Redis is shared between
     * them.
     *
     * @param lease its watchdog lease
     * @return the manager, closed after the test (closing it earlier is fine)
     */
    protected final LockManager manager(Duration lease) {
        LockManager manager = redis().builder().keyPrefix(keyPrefix).leaseTime(lease).build();
        managers.add(manager);
        return manager;
    }

    /**
     * @param action what to run in another thread than the test's
     * @param <T>    what it returns
     * @return its future; the thread is interrupted after the test if still running
     */
    protected final <T> Future<T> inOtherThread(Callable<T> action) {
        return threads.submit(action);
    }

    /**
     * Runs {@code cyclesEach} lock, update, unlock cycles on each of {@code locks} at once, one
     * thread per lock, all started together. Each cycle asserts that its thread is the only holder
     * and records the hold's fencing token.
     *
     * @return the updates the lock kept, and every token in the order the holds came
     * @throws Exception when a cycle's assertion failed or a thread did not end within two minutes
     */
    protected final ContendedCycles contendedCycles(List<DistributedLock> locks, int cyclesEach) throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger counter = new AtomicInteger(); // read, then written: only the lock keeps updates
        List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> workers = new ArrayList<>();
        for (DistributedLock lock : locks) {
            workers.add(inOtherThread(() -> {
                start.await();
                for (int i = 0; i < cyclesEach; i++) {
                    assertThat(lock.tryLock(30, TimeUnit.SECONDS)).isTrue();
                    try {
                        assertThat(inside.incrementAndGet()).as("holders at once").isEqualTo(1);
                        counter.set(counter.get() + 1);
                        tokens.add(lock.fencingToken());
                        inside.decrementAndGet();
                    } finally {
                        lock.unlock();
                    }
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> worker : workers) {
            worker.get(2, TimeUnit.MINUTES);
        }
        return new ContendedCycles(counter.get(), List.copyOf(tokens));
    }

    /**
     * What {@link #contendedCycles} saw.
     *
     * @param updates the updates kept
     * @param tokens  the holds' fencing tokens, in the order they came
     */
    protected record ContendedCycles(int updates, List<Long> tokens) {
    }

    /**
     * @param name a lock's name
     * @return how many processes (managers) listen for the release of that lock now, as
     *         {@link LockManager#describe(String)} counts them
     */
    protected final int listeningProcesses(String name) {
        return observer().describe(name).waitingProcesses();
    }

    /**
     * Waits until {@code processes} processes listen for the release of {@code name}: a waiter
     * that listens hears the release, whatever it does next.
     *
     * @param name      a lock's name
     * @param processes how many
     */
    protected final void awaitListening(String name, int processes) {
        Await.until(processes + " process(es) listening for the release of " + name, Duration.ofSeconds(10),
                () -> listeningProcesses(name) == processes);
    }

    private synchronized LockManager observer() {
        if (observer == null) {
            observer = manager();
        }
        return observer;
    }

    /**
     * @param key a key under this test's prefix, without the prefix, such as {@code {orders}:fence}
     * @return whether the documentation lets it stay after the test: a fencing counter. Contracts
     *         whose features keep more (a job's run records) add theirs
     */
    protected boolean mayStay(String key) {
        return key.endsWith(":fence");
    }

    /**
     * @return the keys under this test's prefix that should not be there now, while its managers
     *         are open: each open manager's description of itself ({@code manager:<id>}) is not
     *         counted; once they are closed, it is
     */
    protected final List<String> leftBehind() {
        return leftBehind(true);
    }

    private List<String> leftBehind(boolean managersOpen) {
        List<String> left = new ArrayList<>();
        for (StoredKey key : redis().keys(keyPrefix)) {
            String name = key.name().substring(keyPrefix.length());
            boolean expired = key.millisToLive() == -2;
            boolean expiringLatch = name.contains(":unlock:") && key.millisToLive() >= 0
                    && key.millisToLive() <= commandTimeout().toMillis();
            boolean openManager = managersOpen && name.startsWith("manager:");
            if (!expired && !expiringLatch && !openManager && !mayStay(name)) {
                left.add(key.name() + " (ttl " + key.millisToLive() + " ms)");
            }
        }
        return left;
    }

    /**
     * Waits, up to the command timeout and 5 s more, until nothing is left under this test's prefix
     * but what {@link #mayStay(String)} allows, once every manager of the test is closed: what a
     * close or an expiry removes asynchronously (a fair waiter's place, a minimum hold) is given
     * that time.
     *
     * @throws IllegalStateException naming what is left, after the deadline
     */
    private void awaitNothingLeftBehind() {
        Await.untilNothingPending("nothing left in Redis under " + keyPrefix, commandTimeout().plusSeconds(5), () -> {
            List<String> left = leftBehind(false);
            return left.isEmpty() ? null : "left: " + left;
        }, () -> "");
    }

    /**
     * Stops the test's threads, closes its managers, and checks that nothing is left behind.
     */
    @AfterEach
    final void closeManagersAndCheckNothingIsLeft() {
        Thread.interrupted();
        threads.shutdownNow();
        RuntimeException failure = null;
        for (LockManager manager : managers) {
            try {
                manager.close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
        awaitNothingLeftBehind();
    }
}
