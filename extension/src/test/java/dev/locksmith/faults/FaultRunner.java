package dev.locksmith.faults;

import dev.locksmith.DistributedLock;
import dev.locksmith.LockException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.RedisMode;
import dev.locksmith.faults.FaultScenario.Topology;
import dev.locksmith.faults.FaultScenario.UsedLock;
import dev.locksmith.internal.store.ScriptLabels;
import dev.locksmith.testing.LiveThreads;
import dev.locksmith.testing.FaultProxy;
import dev.locksmith.testing.FaultProxy.Fault;
import dev.locksmith.testing.FaultProxy.Traced;
import dev.locksmith.testing.IndependentMasters;
import dev.locksmith.testing.RedisNode;
import dev.locksmith.testing.RespClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Runs a {@link FaultScenario} once through a recording {@link FaultProxy}, to list the commands
 * and pushes it causes on every connection of every manager (the callers', the watchdog's, the
 * pub/sub thread's, the scheduler's), and then once per position and fault kind with that fault
 * armed; after every run it checks:
 * <ol>
 *   <li><b>never two holders</b>: the scenario's ledger saw no overlap;</li>
 *   <li><b>documented results</b>: every caller returned normally or threw what the docs allow
 *       ({@code LockException} and its subclasses; {@code IllegalStateException} once its manager
 *       was closing; what a step names), and none hung;</li>
 *   <li><b>every lock free within its bound</b>: with the scenario's managers still open and all
 *       their callers done, a probe manager connected to Redis directly takes every lock the
 *       scenario used within the bound {@code docs/guarantees.md} states for the failure: one
 *       command timeout when nothing failed or only a message was lost, one lease from the
 *       failure when a command failed (a release refused or unanswered frees its lock within one
 *       lease), plus the scenario's minimum hold and a slack for a loaded machine;</li>
 *   <li><b>nothing left after close()</b>: the proxy's connections of the closed managers reach 0,
 *       their schedulers hold no task, no Lettuce or Locksmith thread started during the run is
 *       alive, the probe takes every lock again within the same bound, and once the probe closed
 *       no lock key and no release channel is left in Redis.</li>
 * </ol>
 */
final class FaultRunner {
    /** The managers' lease: short, so the bounds are. */
    static final Duration LEASE = Duration.ofMillis(1_500);
    /** The managers' command timeout. */
    static final Duration COMMAND_TIMEOUT = Duration.ofMillis(300);
    /** What a bound allows beyond the docs' for round trips on a loaded 2-core machine. */
    static final Duration SLACK = Duration.ofMillis(750);
    private static final Duration PROBE_COMMAND_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration CALLERS_DEADLINE = Duration.ofSeconds(20);
    private static final Duration CLOSE_DEADLINE = Duration.ofSeconds(4);
    /** Close is synchronous: a task still scheduled this long after it returned outlived the manager. */
    private static final Duration SCHEDULER_DEADLINE = Duration.ofMillis(250);
    private static final String WITHOUT_A_FAULT = "without a fault";
    private static final Pattern PROCESS_CHANNEL = Pattern.compile("^(.*:released):([A-Za-z0-9_-]+):$");

    private static final String ROW_RELEASE = "guarantees.md, On the failure paths, 'A release answered with an error"
            + " / whose answer never came': the lock frees itself within one lease of the failure";
    private static final String ROW_NOTHING_FAILED = "locks.md, Failure: close() leaves nothing it granted in Redis;"
            + " without a failed command every lock is free once its holders released it (one command timeout,"
            + " the offer watch)";
    private static final String ROW_LOST_MESSAGE = "locks.md, Waking one process: a process that never saw the"
            + " offer is passed over after one command timeout; guarantees.md: a lost message costs time, never"
            + " correctness";

    private static final String ROW_WAKE = "locks.md, Hand-over within one process / Waking one process: a release"
            + " hands the lock to the waiter, or offers it to its process, within one round trip; an offer not taken is"
            + " passed on after one command timeout";
    private static final Pattern OFFERED_TO = Pattern.compile(":released:<([^>]+)>$");
    private static final String ROW_OFFER_PASSED_ON = "locks.md, Waking one process, 'never saw the message': the"
            + " releasing process passes the offer on after one command timeout, so another waiter has its chance"
            + " within one command timeout";
    private static final String ROW_PASS_ON = "locks.md, Waking one process: an offer not taken is passed on after"
            + " one command timeout; guarantees.md, What Redis answers: BUSY, LOADING, READONLY, timeouts and lost"
            + " connections are transient, tried again";
    private static final String ROW_LOST_MESSAGE_WAITER = "guarantees.md, Cluster: whatever the channel does, a"
            + " waiter also wakes when the holder's lease runs out, so a lost message costs time (at most one lease),"
            + " never correctness";

    private final RedisNode standalone;
    private final IndependentMasters masters;
    private final Map<String, String> scriptLabels = ScriptLabels.operationsBySha();

    /**
     * @param standalone the master standalone scenarios use
     * @param masters    three masters for RedLock scenarios
     */
    FaultRunner(RedisNode standalone, IndependentMasters masters) {
        this.standalone = standalone;
        this.masters = masters;
        // Loaded before the first run, so that every run, the recording one included, finds them
        // (a first EVALSHA answered NOSCRIPT would make the first run's commands differ from the rest).
        List<RedisNode> all = new ArrayList<>(masters.nodes());
        all.add(standalone);
        for (RedisNode node : all) {
            ScriptLabels.bodies().forEach(body -> RespClient.call(node.port(), "SCRIPT", "LOAD", body));
        }
    }

    /**
     * One place a fault can hit: the {@code occurrence}-th command (or push) of a signature.
     */
    record Position(String signature, int occurrence, boolean push) {
        @Override
        public String toString() {
            return signature + "#" + occurrence;
        }
    }

    /**
     * What one run found.
     *
     * @param name     {@code scenario / signature#n / kind}
     * @param reached  false when the armed fault's position never came in this run
     * @param failures every check that failed, in words
     * @param took     how long the run took, checks included
     */
    record RunResult(String name, boolean reached, List<String> failures, Duration took) {
    }

    /**
     * The run without a fault: the positions it went through, in order of first appearance.
     */
    record Recording(List<Traced> trace, List<Position> positions, RunResult run) {
        List<String> commandSignatures() {
            return positions.stream().filter(p -> !p.push()).map(Position::signature).distinct().toList();
        }

        List<String> pushSignatures() {
            return positions.stream().filter(Position::push).map(Position::signature).distinct().toList();
        }

        /**
         * @return whether the scenario ran as designed without a fault (every wait reached, every
         *         result normal), so that its positions are the ones to fault; the run's other
         *         checks may still fail, on a library bug that needs no fault
         */
        boolean usable() {
            return run.failures().stream().noneMatch(failure -> failure.startsWith(WITHOUT_A_FAULT));
        }

        int occurrences(String signature) {
            return (int) positions.stream().filter(p -> p.signature().equals(signature)).count();
        }
    }

    /**
     * Runs the scenario without a fault, recording every command and push.
     */
    Recording record(FaultScenario scenario) {
        List<Traced> trace = new ArrayList<>();
        RunResult run = execute(scenario, null, scenario.name() + " / recording", trace);
        Map<String, Integer> seen = new LinkedHashMap<>();
        List<Position> positions = new ArrayList<>();
        for (Traced entry : trace) {
            int occurrence = seen.merge(entry.signature() + (entry.push() ? "\0push" : ""), 1, Integer::sum);
            positions.add(new Position(entry.signature(), occurrence, entry.push()));
        }
        return new Recording(List.copyOf(trace), List.copyOf(positions), run);
    }

    /**
     * Runs the scenario with {@code kind} at {@code position}.
     */
    RunResult run(FaultScenario scenario, Position position, FaultKind kind) {
        Fault fault = kind.at(position.signature(), position.occurrence(), COMMAND_TIMEOUT);
        return execute(scenario, fault, scenario.name() + " / " + position + " / " + kind, null);
    }

    private RunResult execute(FaultScenario scenario, Fault fault, String name, List<Traced> recorded) {
        long started = System.nanoTime();
        boolean redLock = scenario.topology() == Topology.REDLOCK;
        RedisNode front = redLock ? masters.node(0) : standalone;
        List<RedisNode> nodes = redLock ? List.copyOf(masters.nodes()) : List.of(standalone);
        List<String> failures = new ArrayList<>();
        FaultProxy proxy = FaultProxy.inFrontOf(front, scriptLabels::get, channelLabels(front));
        ScenarioContext context = null;
        boolean reached = true;
        long leftoverDeadline = 0;
        try (LockManager probe = probe(redLock, scenario.lease())) {
            Set<Thread> before = clientThreads();
            if (fault != null) {
                proxy.arm(fault);
            }
            String uri = redLock ? proxy.uri() + "," + masters.uri(1) + "," + masters.uri(2) : proxy.uri();
            context = new ScenarioContext(uri, redLock, redLock ? masters.node(1) : standalone, scenario.lease(), COMMAND_TIMEOUT,
                    proxy.port());
            try {
                scenario.body().run(context);
            } catch (Throwable e) {
                context.bodyFailed(e);
            }
            awaitCallers(context, failures);
            long scenarioEnd = System.nanoTime();
            Traced fired = proxy.fired();
            reached = fault == null || fired != null;

            Bound live = bound(scenario, fault, fired, scenarioEnd);
            probeEveryLock(probe, scenario, live, "with the scenario's managers still open and their callers done",
                    front, nodes, failures);

            for (LockManager manager : context.managers()) {
                context.closingAtEnd(manager);
                try {
                    manager.close();
                } catch (LockException e) {
                    // Documented: closing the connections failed; what it granted expires with its lease,
                    // which the probe below checks.
                }
            }
            long closed = System.nanoTime();
            checkSchedulers(context, closed, failures);
            Traced firedLate = proxy.fired();
            Bound afterClose = bound(scenario, fault, firedLate, closed);
            // Before the waits for connections and threads, which must not eat the locks' bound.
            probeEveryLock(probe, scenario, afterClose, "after close()", front, nodes, failures);
            leftoverDeadline = afterClose.deadlineNanos();
            checkClosed(proxy, before, failures);

            for (ScenarioContext.Wait wait : context.waits()) {
                Bound bound = waitBound(scenario, fault, firedLate, wait);
                // A wait that ran out before the bound says nothing (the probe checks the lock later); one
                // that was still waiting after it, with or without the lock in the end, was not let in in time.
                if (wait.endedAt() - bound.deadlineNanos() > 0) {
                    failures.add("waiter " + wait.who() + " of '" + wait.lock() + "' " + (wait.acquired() ? "got it only "
                            : "gave up, without it, ") + TimeUnit.NANOSECONDS.toMillis(wait.endedAt() - wait.releasedAt())
                            + " ms after the holder's release; bound " + TimeUnit.NANOSECONDS.toMillis(
                            bound.deadlineNanos() - wait.releasedAt()) + " ms from the release. Row: " + bound.row());
                }
            }
            context.ledger().violations().forEach(v -> failures.add("two holders (ledger): " + v));
            for (ScenarioContext.Outcome outcome : context.outcomes()) {
                String undocumented = outcome.undocumented();
                if (undocumented != null) {
                    failures.add("undocumented result: " + undocumented + stackOf(outcome.failure()));
                }
            }
            if (fault == null) {
                context.outcomes().stream().filter(o -> o.failure() != null
                        && !(o.failure() instanceof IllegalStateException && o.managerClosing())).forEach(o -> failures.add(
                        WITHOUT_A_FAULT + " the scenario must run cleanly, but " + o.who() + " got " + o.failure()
                                + stackOf(o.failure())));
                context.unreached().forEach(what -> failures.add(WITHOUT_A_FAULT + ", never reached: " + what));
                if (context.ledger().entries() == 0) {
                    failures.add(WITHOUT_A_FAULT + ", no critical section was entered");
                }
            }
        } catch (RuntimeException e) {
            failures.add("the harness itself failed: " + e + stackOf(e));
        } finally {
            if (recorded != null) {
                recorded.addAll(proxy.trace());
            }
            proxy.close();
            if (context != null) {
                context.managers().forEach(manager -> {
                    try {
                        manager.close();
                    } catch (RuntimeException e) {
                        // already reported, or closed
                    }
                });
                context.schedulers().values().forEach(ScheduledThreadPoolExecutor::shutdownNow);
                context.closeStallingProxies();
            }
        }
        leftBehind(nodes, leftoverDeadline, failures);
        nodes.forEach(node -> node.command("FLUSHALL"));
        return new RunResult(name, reached, List.copyOf(failures), Duration.ofNanos(System.nanoTime() - started));
    }

    /** The deadline for every lock of the scenario to be free, and the docs' row it comes from. */
    private record Bound(long deadlineNanos, String row, long fromNanos) {
    }

    private Bound bound(FaultScenario scenario, Fault fault, Traced fired, long now) {
        long quiet = now + COMMAND_TIMEOUT.plus(SLACK).plus(scenario.kept()).toNanos();
        if (fired == null) {
            return new Bound(quiet, ROW_NOTHING_FAILED, now);
        }
        if (fault.kind() == FaultProxy.Kind.LOSE_PUSH) {
            return new Bound(quiet, ROW_LOST_MESSAGE, now);
        }
        if (nothingFailed(fault, fired)) {
            // Answered by a resend of the script's text: nothing failed.
            return new Bound(quiet, ROW_NOTHING_FAILED + " (a NOSCRIPT is repaired by EVAL)", now);
        }
        long hold = fault.hold() == null ? 0 : fault.hold().toNanos();
        long afterFailure = fired.nanoTime() + hold + COMMAND_TIMEOUT.plus(scenario.lease()).plus(SLACK).plus(scenario.kept()).toNanos();
        return new Bound(Math.max(quiet, afterFailure), ROW_RELEASE, fired.nanoTime());
    }

    /** When a waiter must have the lock a holder released at {@code releasedAt}. */
    private Bound waitBound(FaultScenario scenario, Fault fault, Traced fired, ScenarioContext.Wait wait) {
        long releasedAt = wait.releasedAt();
        long quiet = releasedAt + COMMAND_TIMEOUT.plus(SLACK).plus(scenario.kept()).toNanos();
        if (fired == null || nothingFailed(fault, fired)) {
            return new Bound(quiet, ROW_WAKE, releasedAt);
        }
        Matcher lostFor = OFFERED_TO.matcher(fault.signature());
        if (fault.kind() == FaultProxy.Kind.LOSE_PUSH && lostFor.find() && !wait.who().startsWith(lostFor.group(1))) {
            // Another process's offer was lost: the releaser's watch passes it on after one command timeout.
            return new Bound(quiet, ROW_OFFER_PASSED_ON, releasedAt);
        }
        if (passesAnOfferOn(fault)) {
            // A pass-on that meets a transient failure is tried again: the offer moves on within a command timeout.
            long hold = fault.hold() == null ? 0 : fault.hold().toNanos();
            return new Bound(Math.max(quiet, fired.nanoTime() + hold + COMMAND_TIMEOUT.multipliedBy(2).plus(SLACK)
                    .plus(scenario.kept()).toNanos()), ROW_PASS_ON, releasedAt);
        }
        if (fault.kind() == FaultProxy.Kind.LOSE_PUSH) {
            return new Bound(releasedAt + scenario.lease().plus(COMMAND_TIMEOUT).plus(SLACK).plus(scenario.kept()).toNanos(),
                    ROW_LOST_MESSAGE_WAITER, releasedAt);
        }
        long hold = fault.hold() == null ? 0 : fault.hold().toNanos();
        long afterFailure = fired.nanoTime() + hold + COMMAND_TIMEOUT.plus(scenario.lease()).plus(SLACK).plus(scenario.kept()).toNanos();
        return new Bound(Math.max(quiet, afterFailure), ROW_RELEASE, releasedAt);
    }

    /** A pass-on of an offer that failed in a way Redis calls transient (BUSY, LOADING, READONLY, no answer, a drop). */
    private static boolean passesAnOfferOn(Fault fault) {
        boolean transientFailure = fault.kind() != FaultProxy.Kind.ERROR_REPLY
                || fault.errorLine().startsWith("BUSY") || fault.errorLine().startsWith("LOADING")
                || fault.errorLine().startsWith("READONLY");
        return transientFailure && fault.kind() != FaultProxy.Kind.LOSE_PUSH
                && (fault.signature().equals("EVALSHA pass-offer") || fault.signature().equals("EVALSHA rw-pass-offer"));
    }

    private static boolean nothingFailed(Fault fault, Traced fired) {
        return FaultProxy.NOSCRIPT.equals(fault.errorLine()) && fired.signature().startsWith("EVALSHA");
    }

    private void probeEveryLock(LockManager probe, FaultScenario scenario, Bound bound, String when, RedisNode front,
                                List<RedisNode> nodes, List<String> failures) {
        for (UsedLock used : scenario.locks()) {
            DistributedLock lock = switch (used.kind()) {
                case REENTRANT -> probe.getLock(used.name());
                case FAIR -> probe.getFairLock(used.name());
                case READ_WRITE -> probe.getReadWriteLock(used.name()).writeLock();
            };
            long start = System.nanoTime();
            boolean taken = false;
            LockException last = null;
            while (!taken && System.nanoTime() - bound.deadlineNanos() < 0) {
                try {
                    long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(bound.deadlineNanos() - System.nanoTime()));
                    taken = lock.tryLock(left, TimeUnit.MILLISECONDS);
                } catch (LockException e) {
                    last = e;
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while probing " + used.name(), e);
                }
            }
            if (!taken) {
                failures.add("lock '" + used.name() + "' not free " + when + " within its bound ("
                        + TimeUnit.NANOSECONDS.toMillis(bound.deadlineNanos() - bound.fromNanos()) + " ms from "
                        + (bound.row().equals(ROW_RELEASE) ? "the failure" : "the end of the scenario") + "; waited "
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms). Row: " + bound.row()
                        + ". Redis holds: " + stateOf(used.name(), nodes) + (last == null ? "" : "; last probe error: " + last));
                continue;
            }
            try {
                lock.unlock();
            } catch (LockException e) {
                failures.add("the probe could not release '" + used.name() + "' " + when + ": " + e);
            }
        }
    }

    /** The schedulers given to the closed managers hold no task of them shortly after close() returned. */
    private static void checkSchedulers(ScenarioContext context, long closed, List<String> failures) {
        for (Map.Entry<LockManager, ScheduledThreadPoolExecutor> entry : context.schedulers().entrySet()) {
            ScheduledThreadPoolExecutor scheduler = entry.getValue();
            long left = closed + SCHEDULER_DEADLINE.toNanos() - System.nanoTime();
            if (!waitFor(Duration.ofNanos(Math.max(0, left)), () -> liveTasks(scheduler).isEmpty())) {
                failures.add("after close(): the scheduler given to a closed manager still holds "
                        + liveTasks(scheduler).size() + " task(s) of it " + SCHEDULER_DEADLINE.toMillis()
                        + " ms after close() returned, due in " + liveTasks(scheduler) + " ms");
            }
        }
    }

    /** The closed managers' connections and threads are gone. */
    private static void checkClosed(FaultProxy proxy, Set<Thread> before, List<String> failures) {
        if (!waitFor(CLOSE_DEADLINE, () -> proxy.connections() == 0)) {
            failures.add("after close(): " + proxy.connections() + " connection(s) of the closed managers still open"
                    + " after " + CLOSE_DEADLINE.toMillis() + " ms");
        }
        if (!waitFor(CLOSE_DEADLINE, () -> newThreads(before).isEmpty())) {
            failures.add("after close(): threads of the closed managers still alive after " + CLOSE_DEADLINE.toMillis()
                    + " ms: " + newThreads(before).stream().map(FaultRunner::describe).sorted().toList());
        }
    }

    private static String describe(Thread thread) {
        return LiveThreads.describe(thread, 8);
    }

    private static List<Long> liveTasks(ScheduledThreadPoolExecutor scheduler) {
        return scheduler.getQueue().stream()
                .filter(task -> !(task instanceof Future<?> future && future.isCancelled()))
                .map(task -> task instanceof java.util.concurrent.Delayed delayed
                        ? delayed.getDelay(TimeUnit.MILLISECONDS) : -1L)
                .toList();
    }

    private static Set<Thread> clientThreads() {
        return new HashSet<>(LiveThreads.ofTheClient());
    }

    private static List<Thread> newThreads(Set<Thread> before) {
        return clientThreads().stream().filter(thread -> !before.contains(thread) && thread.isAlive()).toList();
    }

    /**
     * Keys of a lock whose release failed on one server (RedLock's faulted master) stay there
     * until their lease runs out, which the bound allows: they must be gone by its deadline.
     */
    private void leftBehind(List<RedisNode> nodes, long deadlineNanos, List<String> failures) {
        for (RedisNode node : nodes) {
            if (!waitFor(Duration.ofSeconds(3), () -> channels(node).isEmpty())) {
                failures.add("after every manager closed, " + node.uri() + " still has release channels: " + channels(node));
            }
            waitFor(Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())), () -> keysLeft(node).isEmpty());
            List<String> left = keysLeft(node);
            if (!left.isEmpty()) {
                failures.add("lock state left in " + node.uri() + " after every manager closed: " + left.stream()
                        .map(key -> key + " = " + valueOf(node, key) + " (pttl " + node.command("PTTL", key) + " ms)")
                        .toList());
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> channels(RedisNode node) {
        return (List<String>) RespClient.call(node.port(), "PUBSUB", "CHANNELS", "locksmith:*");
    }

    /** As {@code RedisServerExtension.lockStateLeftBehind}, on any node. */
    @SuppressWarnings("unchecked")
    private static List<String> keysLeft(RedisNode node) {
        return ((List<String>) RespClient.call(node.port(), "KEYS", "locksmith:*")).stream()
                .filter(key -> !key.endsWith(":fence") && !key.endsWith(":last-run") && !key.endsWith(":runs"))
                .filter(key -> !key.startsWith("locksmith:manager:"))
                .filter(key -> !(key.contains(":unlock:") && expiresWithin(node, key, PROBE_COMMAND_TIMEOUT.toMillis())))
                .sorted()
                .toList();
    }

    private static boolean expiresWithin(RedisNode node, String key, long millis) {
        long ttl = Long.parseLong(node.command("PTTL", key));
        return ttl == -2 || (ttl >= 0 && ttl <= millis);
    }

    private static String stateOf(String name, List<RedisNode> nodes) {
        List<String> states = new ArrayList<>();
        for (RedisNode node : nodes) {
            @SuppressWarnings("unchecked")
            List<String> keys = (List<String>) RespClient.call(node.port(), "KEYS", "locksmith:{" + name + "}*");
            states.add(node.uri() + " " + keys.stream().filter(key -> !key.endsWith(":fence"))
                    .map(key -> key + " = " + valueOf(node, key) + " (pttl " + node.command("PTTL", key) + ")")
                    .toList());
        }
        return String.join("; ", states);
    }

    private static Object valueOf(RedisNode node, String key) {
        return switch (node.command("TYPE", key)) {
            case "hash" -> RespClient.call(node.port(), "HGETALL", key);
            case "list" -> RespClient.call(node.port(), "LRANGE", key, "0", "-1");
            case "none" -> "(gone)";
            default -> RespClient.call(node.port(), "GET", key);
        };
    }

    private LockManager probe(boolean redLock, Duration lease) {
        return Locksmith.builder().redisUri(redLock ? masters.uris() : standalone.uri())
                .mode(redLock ? RedisMode.REDLOCK : RedisMode.STANDALONE).leaseTime(lease)
                .commandTimeout(PROBE_COMMAND_TIMEOUT).applicationName("probe").telemetry(false).build();
    }

    private static void awaitCallers(ScenarioContext context, List<String> failures) {
        long deadline = System.nanoTime() + CALLERS_DEADLINE.toNanos();
        for (Thread thread : context.threads()) {
            try {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the scenario's callers", e);
            }
            if (thread.isAlive()) {
                failures.add("a caller never returned (" + CALLERS_DEADLINE.toSeconds() + " s): "
                        + LiveThreads.describe(thread, 12));
                thread.interrupt();
            }
        }
    }

    /**
     * Labels a process's own channel by its manager's application name (the scenario's role),
     * read from the manager's description in Redis, so that a push has the same signature in
     * every run although manager ids are random.
     */
    private static Function<String, String> channelLabels(RedisNode node) {
        Map<String, String> roles = new ConcurrentHashMap<>();
        return channel -> {
            Matcher process = PROCESS_CHANNEL.matcher(channel);
            if (!process.matches()) {
                return channel;
            }
            String id = process.group(2);
            String role = roles.computeIfAbsent(id, key -> {
                Object description = RespClient.call(node.port(), "GET", "locksmith:manager:" + key);
                String text = description == null ? "" : description.toString();
                int at = text.indexOf("application ");
                return at < 0 ? "?" : text.substring(at + "application ".length()).trim();
            });
            return process.group(1) + ":<" + role + ">";
        };
    }

    private static boolean waitFor(Duration timeout, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (condition.getAsBoolean()) {
                return true;
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    private static String stackOf(Throwable failure) {
        if (failure == null) {
            return "";
        }
        return " at " + Arrays.stream(failure.getStackTrace()).limit(6).map(String::valueOf)
                .collect(Collectors.joining(" < "));
    }
}
