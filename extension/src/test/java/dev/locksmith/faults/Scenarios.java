package dev.locksmith.faults;

import static dev.locksmith.faults.FaultScenario.LockKind.FAIR;
import static dev.locksmith.faults.FaultScenario.LockKind.READ_WRITE;
import static dev.locksmith.faults.FaultScenario.LockKind.REENTRANT;
import static dev.locksmith.faults.FaultScenario.Topology.REDLOCK;
import static dev.locksmith.faults.FaultScenario.Topology.STANDALONE;

import dev.locksmith.CallOptions;
import dev.locksmith.DistributedLock;
import dev.locksmith.LockManager;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.faults.FaultScenario.LockKind;
import dev.locksmith.faults.FaultScenario.Topology;
import dev.locksmith.faults.FaultScenario.UsedLock;
import dev.locksmith.testing.Transactions;
import jakarta.transaction.RollbackException;
import jakarta.transaction.TransactionManager;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The protocol scenarios of the fault-position harness, each as small as the path it drives.
 * Managers stand for processes ({@code A}, {@code B}, {@code C}); threads of one manager are
 * {@code A1}, {@code A2}. Every wait for a state (a waiter in the ring, a thread parked in the
 * line) gives up after {@link #SETTLE}, because a fault may keep it from coming; the harness's
 * checks then judge what happened instead.
 */
final class Scenarios {
    /** How long a scenario waits for a state a fault may prevent. */
    private static final Duration SETTLE = Duration.ofMillis(2_500);
    /** How long a waiter waits for a lock: longer than a lease, so a release that failed still lets it in. */
    private static final long WAIT_MILLIS = 4_000;
    private static final Duration MIN_HOLD = Duration.ofMillis(800);

    private Scenarios() {
    }

    /**
     * @return every scenario, in the order of the priorities
     */
    static List<FaultScenario> all() {
        return List.of(reentrant(), nested(), handOver(), offerTaken(), offerDeclined(), fairTurn(), readWrite(),
                offerPassedOver(), multiLock(), minimumHoldAndSkip(), redLock(), redLockMinimumHold(), afterCommit(), afterRollback(),
                closeWhileHolding(), closeWhileWaiting(), closeRightAfterAnOffer(), closeDuringHandOver());
    }

    static FaultScenario reentrant() {
        return scenario("reentrant", "an uncontended lock() and unlock() of the reentrant lock", STANDALONE,
                List.of(lock("plain", REENTRANT)), context -> {
                    LockManager a = context.manager("A");
                    DistributedLock lock = a.getLock("plain");
                    context.call("A", a, () -> {
                        lock.lock();
                        try (Ledger.Section section = context.ledger().enter("plain", "A", false)) {
                            // the critical section
                        } finally {
                            lock.unlock();
                        }
                    });
                });
    }

    static FaultScenario nested() {
        return scenario("nested", "a re-entered hold: lock(), lock(), unlock(), unlock(); then another process"
                        + " takes the lock", STANDALONE, List.of(lock("nested", REENTRANT)), context -> {
                    LockManager a = context.manager("A");
                    DistributedLock lock = a.getLock("nested");
                    context.call("A", a, () -> {
                        lock.lock();
                        try {
                            lock.lock();
                            try (Ledger.Section section = context.ledger().enter("nested", "A", false)) {
                                // the critical section, entered twice
                            } finally {
                                lock.unlock();
                            }
                        } finally {
                            release(context, lock, "nested");
                        }
                    });
                    LockManager b = context.manager("B");
                    DistributedLock other = b.getLock("nested");
                    context.call("B", b, () -> waitAndHold(context, other, "nested", "B"));
                });
    }

    static FaultScenario handOver() {
        return scenario("hand-over", "a release that hands the lock to a thread of the same manager parked in"
                + " its line (hand-over)", STANDALONE, List.of(lock("handed", REENTRANT)), context -> {
                    LockManager a = context.manager("A");
                    AtomicReference<Thread> second = new AtomicReference<>();
                    CountDownLatch firstHolds = new CountDownLatch(1);
                    Thread first = context.start("A1", a, () -> {
                        DistributedLock lock = a.getLock("handed");
                        lock.lock();
                        try (Ledger.Section section = context.ledger().enter("handed", "A1", false)) {
                            firstHolds.countDown();
                            context.await("A2 parked in A's line", SETTLE, () -> second.get() != null
                                    && (ScenarioContext.parkedInLine(a, "handed") || !second.get().isAlive()));
                        } finally {
                            release(context, lock, "handed");
                        }
                    });
                    if (reached(context, "A1 holds", firstHolds, first)) {
                        second.set(context.start("A2", a, () -> waitAndHold(context, a.getLock("handed"), "handed", "A2")));
                    }
                });
    }

    static FaultScenario offerTaken() {
        return scenario("offer-taken", "a release that offers the lock to the one process waiting in the ring,"
                + " whose pub/sub thread takes it for its sleeping waiter", STANDALONE,
                List.of(lock("offered", REENTRANT)), context -> {
                    LockManager a = context.manager("A");
                    LockManager b = context.manager("B");
                    holdUntilOthersWait(context, a, "A", "offered", REENTRANT, 1,
                            () -> List.of(context.start("B", b, () -> waitAndHold(context, b.getLock("offered"), "offered", "B"))));
                });
    }

    static FaultScenario offerDeclined() {
        return scenario("offer-declined", "an offer to a process whose waiter gave up (it still lingers in the"
                + " ring): it passes the offer on to the next process", STANDALONE,
                List.of(lock("declined", REENTRANT)), context -> {
                    LockManager a = context.manager("A");
                    LockManager b = context.manager("B");
                    LockManager c = context.manager("C");
                    DistributedLock held = a.getLock("declined");
                    if (!context.call("A", a, held::lock)) {
                        return;
                    }
                    Thread gaveUp = context.start("B", b, () -> {
                        DistributedLock lock = b.getLock("declined");
                        if (lock.tryLock(800, TimeUnit.MILLISECONDS)) {
                            try (Ledger.Section section = context.ledger().enter("declined", "B", false)) {
                                // not expected while A holds, but a fault may free the lock early
                            } finally {
                                lock.unlock();
                            }
                        }
                    });
                    context.await("B in the ring", SETTLE, () -> !gaveUp.isAlive()
                            || context.waitersInRedis("declined", REENTRANT) >= 1);
                    Thread waiter = context.start("C", c, () -> waitAndHold(context, c.getLock("declined"), "declined", "C"));
                    context.await("B and C in the ring", SETTLE, () -> !gaveUp.isAlive() || !waiter.isAlive()
                            || context.waitersInRedis("declined", REENTRANT) >= 2);
                    gaveUp.join(SETTLE.toMillis());
                    context.call("A", a, () -> {
                        try (Ledger.Section section = context.ledger().enter("declined", "A", false)) {
                            // A's critical section ends after B gave up
                        } finally {
                            release(context, held, "declined");
                        }
                    });
                });
    }

    static FaultScenario offerPassedOver() {
        return scenario("offer-passed-over", "an offer to a frozen process (its connections open but silent): the"
                + " releaser passes it on to the next process after one command timeout", STANDALONE,
                List.of(lock("passed", REENTRANT)), context -> {
                    LockManager a = context.manager("A");
                    LockManager b = context.freezableManager("B");
                    LockManager c = context.manager("C");
                    DistributedLock held = a.getLock("passed");
                    if (!context.call("A", a, held::lock)) {
                        return;
                    }
                    // B's result is not checked against a bound: it is frozen while the lock moves on.
                    Thread frozen = context.start("B", b, () -> {
                        DistributedLock lock = b.getLock("passed");
                        if (lock.tryLock(WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                            try (Ledger.Section section = context.ledger().enter("passed", "B", false)) {
                                // B's critical section, after C's
                            } finally {
                                lock.unlock();
                            }
                        }
                    });
                    context.await("B sleeps in the ring", SETTLE, () -> !frozen.isAlive()
                            || context.waitersInRedis("passed", REENTRANT) >= 1 && ScenarioContext.parkedInLine(b, "passed"));
                    Thread next = context.start("C", c, () -> waitAndHold(context, c.getLock("passed"), "passed", "C"));
                    context.await("B and C sleep in the ring", SETTLE, () -> !frozen.isAlive() || !next.isAlive()
                            || context.waitersInRedis("passed", REENTRANT) >= 2 && ScenarioContext.sleeps(c, "passed"));
                    context.stall("B");
                    try {
                        context.call("A", a, () -> {
                            try (Ledger.Section section = context.ledger().enter("passed", "A", false)) {
                                // A's critical section
                            } finally {
                                release(context, held, "passed");
                            }
                        });
                        next.join(WAIT_MILLIS + SETTLE.toMillis());
                    } finally {
                        context.resume("B");
                    }
                }).withLease(Duration.ofSeconds(3)); // a lapsed offer (one lease) must not pass for a passed-on one
    }

    static FaultScenario fairTurn() {
        return scenario("fair-turn", "a fair lock's release that names the head of the queue, a waiter of"
                + " another process", STANDALONE, List.of(lock("fair", FAIR)), context -> {
                    LockManager a = context.manager("A");
                    LockManager b = context.manager("B");
                    holdUntilOthersWait(context, a, "A", "fair", FAIR, 1,
                            () -> List.of(context.start("B", b, () -> waitAndHold(context, b.getFairLock("fair"), "fair", "B"))));
                });
    }

    static FaultScenario readWrite() {
        return scenario("read-write", "a reader's release that lets a writer of another process in", STANDALONE,
                List.of(lock("rw", READ_WRITE)), context -> {
                    LockManager a = context.manager("A");
                    LockManager b = context.manager("B");
                    holdUntilOthersWait(context, a, "A", "rw", READ_WRITE, 1, () -> List.of(context.start("B", b,
                            () -> waitAndHold(context, b.getReadWriteLock("rw").writeLock(), "rw", "B"))));
                });
    }

    static FaultScenario multiLock() {
        return scenario("multi-lock", "a multi-lock over two names taken and released together", STANDALONE,
                List.of(lock("multi-1", REENTRANT), lock("multi-2", REENTRANT)), context -> {
                    LockManager a = context.manager("A");
                    DistributedLock both = a.getMultiLock(a.getLock("multi-1"), a.getLock("multi-2"));
                    context.call("A", a, () -> {
                        both.lock();
                        try (Ledger.Section first = context.ledger().enter("multi-1", "A", false);
                             Ledger.Section second = context.ledger().enter("multi-2", "A", false)) {
                            // the critical section under both
                        } finally {
                            both.unlock();
                        }
                    });
                });
    }

    static FaultScenario minimumHoldAndSkip() {
        return new FaultScenario("min-hold", "callWithLock with a minimum hold that keeps the lock after the"
                + " action, a call of another process that skips meanwhile, and one that waits from during the"
                + " action to the end of the minimum hold", STANDALONE, List.of(lock("job", REENTRANT)), MIN_HOLD, FaultRunner.LEASE,
                context -> minimumHold(context, "job"));
    }

    static FaultScenario redLock() {
        return scenario("redlock", "RedLock over three masters (the proxy in front of one): a hold, a waiter of"
                + " another process woken by the release", REDLOCK, List.of(lock("red", REENTRANT)), context -> {
                    LockManager a = context.manager("A");
                    LockManager b = context.manager("B");
                    holdUntilOthersWait(context, a, "A", "red", REENTRANT, 1,
                            () -> List.of(context.start("B", b, () -> waitAndHold(context, b.getLock("red"), "red", "B"))));
                });
    }

    static FaultScenario redLockMinimumHold() {
        return new FaultScenario("redlock-min-hold", "RedLock: a minimum hold, a skip, and a waiter of another"
                + " process that must get the lock when the minimum hold ends", REDLOCK,
                // A 3 s lease: a waiter that sleeps for the lease it saw cannot pass for one woken by the keep.
                List.of(lock("red-job", REENTRANT)), MIN_HOLD, Duration.ofSeconds(3), context -> minimumHold(context, "red-job"));
    }

    static FaultScenario afterCommit() {
        return transactional("jta-commit", true);
    }

    static FaultScenario afterRollback() {
        return transactional("jta-rollback", false);
    }

    static FaultScenario closeWhileHolding() {
        return scenario("close-holding", "close() while a thread of the manager holds the lock: the holder's"
                + " unlock() then hears the manager closed, and another process gets the lock", STANDALONE,
                List.of(lock("close-held", REENTRANT)), context -> {
                    LockManager a = context.manager("A");
                    LockManager b = context.manager("B");
                    DistributedLock lock = a.getLock("close-held");
                    CountDownLatch holds = new CountDownLatch(1);
                    CountDownLatch closed = new CountDownLatch(1);
                    CountDownLatch left = new CountDownLatch(1);
                    Thread holder = context.start("A1", a, () -> {
                        lock.lock();
                        try {
                            try (Ledger.Section section = context.ledger().enter("close-held", "A1", false)) {
                                holds.countDown();
                                closed.await(SETTLE.toMillis(), TimeUnit.MILLISECONDS);
                            } finally {
                                left.countDown();
                            }
                        } finally {
                            lock.unlock();
                        }
                    });
                    if (reached(context, "A1 holds", holds, holder)) {
                        context.close("close-A", a);
                        context.released("close-held"); // close() releases what the manager held
                    }
                    closed.countDown();
                    // close() took the lock from A1 while A1 still runs (as the docs say it does): B comes
                    // once A1 has left its critical section, so that the ledger judges the locks, not that.
                    reached(context, "A1 left its critical section", left, holder);
                    context.call("B", b, () -> waitAndHold(context, b.getLock("close-held"), "close-held", "B"));
                });
    }

    static FaultScenario closeWhileWaiting() {
        return scenario("close-waiting", "close() of a process whose waiter sleeps in the ring: the waiter hears"
                + " the manager closed, and the holder's release reaches nobody stale", STANDALONE,
                List.of(lock("close-wait", REENTRANT)), context -> {
                    LockManager a = context.manager("A");
                    LockManager b = context.manager("B");
                    DistributedLock held = a.getLock("close-wait");
                    if (!context.call("A", a, held::lock)) {
                        return;
                    }
                    Thread waiter = context.start("B", b, () -> waitAndHold(context, b.getLock("close-wait"), "close-wait", "B"));
                    context.await("B sleeps in the ring", SETTLE, () -> !waiter.isAlive()
                            || context.waitersInRedis("close-wait", REENTRANT) >= 1 && ScenarioContext.sleeps(b, "close-wait"));
                    context.close("close-B", b);
                    context.call("A", a, () -> {
                        try (Ledger.Section section = context.ledger().enter("close-wait", "A", false)) {
                            // A's critical section
                        } finally {
                            release(context, held, "close-wait");
                        }
                    });
                });
    }

    static FaultScenario closeRightAfterAnOffer() {
        return scenario("close-after-offer", "close() of the releasing process right after its release offered"
                + " the lock to the first of two processes in the ring", STANDALONE,
                List.of(lock("close-offer", REENTRANT)), context -> {
                    LockManager a = context.manager("A");
                    LockManager b = context.manager("B");
                    LockManager c = context.manager("C");
                    DistributedLock held = a.getLock("close-offer");
                    if (!context.call("A", a, held::lock)) {
                        return;
                    }
                    Thread first = context.start("B", b, () -> waitAndHold(context, b.getLock("close-offer"), "close-offer", "B"));
                    context.await("B sleeps in the ring", SETTLE, () -> !first.isAlive()
                            || context.waitersInRedis("close-offer", REENTRANT) >= 1 && ScenarioContext.sleeps(b, "close-offer"));
                    Thread second = context.start("C", c, () -> waitAndHold(context, c.getLock("close-offer"), "close-offer", "C"));
                    context.await("B and C sleep in the ring", SETTLE, () -> !first.isAlive() || !second.isAlive()
                            || context.waitersInRedis("close-offer", REENTRANT) >= 2 && ScenarioContext.sleeps(c, "close-offer"));
                    context.call("A", a, () -> {
                        try (Ledger.Section section = context.ledger().enter("close-offer", "A", false)) {
                            // A's critical section
                        } finally {
                            release(context, held, "close-offer");
                        }
                    });
                    context.close("close-A", a);
                });
    }

    static FaultScenario closeDuringHandOver() {
        return scenario("close-hand-over", "close() while a release hands the lock to a parked thread of the same"
                + " manager", STANDALONE, List.of(lock("close-hand", REENTRANT)), context -> {
                    LockManager a = context.manager("A");
                    AtomicReference<Thread> second = new AtomicReference<>();
                    CountDownLatch firstHolds = new CountDownLatch(1);
                    CountDownLatch releasing = new CountDownLatch(1);
                    Thread first = context.start("A1", a, () -> {
                        DistributedLock lock = a.getLock("close-hand");
                        lock.lock();
                        try (Ledger.Section section = context.ledger().enter("close-hand", "A1", false)) {
                            firstHolds.countDown();
                            context.await("A2 parked in A's line", SETTLE, () -> second.get() != null
                                    && (ScenarioContext.parkedInLine(a, "close-hand") || !second.get().isAlive()));
                        } finally {
                            releasing.countDown();
                            release(context, lock, "close-hand");
                        }
                    });
                    if (reached(context, "A1 holds", firstHolds, first)) {
                        second.set(context.start("A2", a, () -> waitAndHold(context, a.getLock("close-hand"), "close-hand", "A2")));
                    }
                    if (reached(context, "A1 releases", releasing, first)) {
                        context.close("close-A", a);
                    }
                });
    }

    /** A holds, the others start and wait; A releases once they all wait (or the wait gave up). */
    private static void holdUntilOthersWait(ScenarioContext context, LockManager a, String who, String name,
                                            LockKind kind, int waiters, java.util.function.Supplier<List<Thread>> others) {
        DistributedLock held = switch (kind) {
            case REENTRANT -> a.getLock(name);
            case FAIR -> a.getFairLock(name);
            case READ_WRITE -> a.getReadWriteLock(name).readLock();
        };
        if (!context.call(who, a, held::lock)) {
            return;
        }
        List<Thread> started = others.get();
        context.await(waiters + " waiter(s) of " + name + " sleeping, seen by Redis", SETTLE, () ->
                started.stream().anyMatch(thread -> !thread.isAlive())
                        || context.waitersInRedis(name, kind) >= waiters && started.stream().allMatch(thread -> context.sleeps(thread, name)));
        context.call(who, a, () -> {
            try (Ledger.Section section = context.ledger().enter(name, who, kind == READ_WRITE)) {
                // the holder's critical section
            } finally {
                release(context, held, name);
            }
        });
    }

    /**
     * A runs a job with a minimum hold; while it runs, B starts waiting for the lock and C's call
     * skips; A's action then returns early, which keeps the lock, held by nobody, for the rest of
     * the minimum hold: B must get it when that ends, not when the lease B last saw would have.
     */
    private static void minimumHold(ScenarioContext context, String name) throws Exception {
        LockManager a = context.manager("A");
        LockManager b = context.manager("B");
        LockManager c = context.manager("C");
        context.call("A", a, () -> a.callWithLock(name, CallOptions.waitingUpTo(Duration.ZERO).minHold(MIN_HOLD), () -> {
            try (Ledger.Section section = context.ledger().enter(name, "A", false)) {
                Thread waiter = context.start("B", b, () -> {
                    try {
                        b.callWithLock(name, CallOptions.waitingUpTo(Duration.ofMillis(WAIT_MILLIS)), () -> {
                            context.waited(name, "B", true);
                            try (Ledger.Section inner = context.ledger().enter(name, "B", false)) {
                                return null;
                            }
                        });
                    } catch (LockTimeoutException e) {
                        context.waited(name, "B", false); // its wait ran out: the lock was not free in time
                        throw e;
                    }
                });
                context.await("B waits for the job's lock", SETTLE, () -> !waiter.isAlive()
                        || ScenarioContext.sleeps(b, name) && context.waitersInRedis(name, REENTRANT) >= 1);
                context.call("C-skip", c, () -> c.callWithLock(name, CallOptions.waitingUpTo(Duration.ZERO).skipWhenHeld(),
                        () -> {
                            try (Ledger.Section inner = context.ledger().enter(name, "C-skip", false)) {
                                return null;
                            }
                        }));
                return null;
            }
        }));
        context.released(name); // kept by nobody for the rest of the minimum hold, which the bound adds
    }

    private static FaultScenario transactional(String name, boolean commit) {
        String lockName = "tx-" + (commit ? "commit" : "rollback");
        return scenario(name, "callWithLock inside a JTA transaction (Narayana), released after the "
                + (commit ? "commit" : "rollback"), STANDALONE, List.of(lock(lockName, REENTRANT)), context -> {
                    LockManager a = context.transactionalManager("A");
                    context.start("A", a, () -> {
                        TransactionManager transactions = Transactions.manager();
                        transactions.begin();
                        try {
                            a.callWithLock(lockName, Duration.ofMillis(WAIT_MILLIS), () -> {
                                try (Ledger.Section section = context.ledger().enter(lockName, "A", false)) {
                                    return null;
                                }
                            });
                        } catch (Exception e) {
                            transactions.rollback();
                            throw e;
                        }
                        if (commit) {
                            transactions.commit();
                        } else {
                            transactions.rollback();
                        }
                    }, RollbackException.class).join(WAIT_MILLIS * 3);
                });
    }

    /** Waits for the lock (longer than a lease), holds it for a critical section, and releases it. */
    private static void waitAndHold(ScenarioContext context, DistributedLock lock, String name, String who)
            throws InterruptedException {
        boolean acquired = lock.tryLock(WAIT_MILLIS, TimeUnit.MILLISECONDS);
        context.waited(name, who, acquired);
        if (acquired) {
            try (Ledger.Section section = context.ledger().enter(name, who, false)) {
                // the critical section
            } finally {
                lock.unlock();
            }
        }
    }

    /** Waits for {@code latch}, giving up when {@code thread}, which counts it down, ended without it. */
    private static boolean reached(ScenarioContext context, String what, CountDownLatch latch, Thread thread) {
        return context.await(what, SETTLE, () -> latch.getCount() == 0 || !thread.isAlive()) && latch.getCount() == 0;
    }

    /** Releases a holder's lock and notes when, for the waiters' bound. */
    private static void release(ScenarioContext context, DistributedLock lock, String name) {
        try {
            lock.unlock();
        } finally {
            context.released(name);
        }
    }

    private static FaultScenario scenario(String name, String covers, Topology topology, List<UsedLock> locks,
                                          FaultScenario.Body body) {
        return new FaultScenario(name, covers, topology, locks, Duration.ZERO, FaultRunner.LEASE, body);
    }

    private static UsedLock lock(String name, LockKind kind) {
        return new UsedLock(name, kind);
    }
}
