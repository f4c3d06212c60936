package dev.locksmith.faults;

import java.time.Duration;
import java.util.List;

/**
 * One protocol scenario the harness runs once to record its commands and then again with a fault
 * at each of them: its name, what it covers, where it runs, the locks it uses (which the harness
 * takes afterwards to prove they were freed), how long it keeps a lock on purpose after its last
 * release (a minimum hold), and its body.
 *
 * @param name     the scenario's name in run names and reports, such as {@code offer-taken}
 * @param covers   what protocol path it drives, in a sentence
 * @param topology one master behind the proxy, or RedLock with the proxy in front of one of three
 * @param locks    every lock it takes
 * @param kept     how long a lock stays taken on purpose after its last release; zero for none
 * @param lease    the managers' lease, which bounds how long a failure may keep a lock
 * @param body     the scenario itself
 */
record FaultScenario(String name, String covers, Topology topology, List<UsedLock> locks, Duration kept,
                     Duration lease, Body body) {

    /**
     * @return this scenario with managers on another lease: a longer one lets a check tell a bound
     *         of a command timeout from one of a lease
     */
    FaultScenario withLease(Duration longer) {
        return new FaultScenario(name, covers, topology, locks, kept, longer, body);
    }

    /** Where the scenario's managers connect. */
    enum Topology {
        /** One Redis master, reached through the proxy. */
        STANDALONE,
        /** RedLock over three independent masters; the first is reached through the proxy. */
        REDLOCK
    }

    /** Which facade of a name the scenario takes, and so which one the harness's probe takes. */
    enum LockKind {
        REENTRANT,
        FAIR,
        READ_WRITE
    }

    /**
     * @param name the lock's name
     * @param kind how the scenario takes it
     */
    record UsedLock(String name, LockKind kind) {
    }

    /** The scenario's steps, given its context. */
    @FunctionalInterface
    interface Body {
        /**
         * @param context managers, threads, the ledger and waits of this run
         * @throws Exception whatever the main thread's calls threw; the harness checks it is documented
         */
        void run(ScenarioContext context) throws Exception;
    }

    @Override
    public String toString() {
        return name;
    }
}
