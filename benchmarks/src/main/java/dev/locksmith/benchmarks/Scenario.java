package dev.locksmith.benchmarks;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What is measured: which kind of lock, on which servers, how many worker JVMs, how many threads
 * in each, how many lock managers (simulated processes) the threads of a JVM spread over, and
 * whether they all take one lock name or each thread its own.
 */
enum Scenario {
    UNCONTENDED_1(Group.REENTRANT, Kind.REENTRANT, Servers.ONE, "Uncontended, 1 thread", 1, 1, false,
            "one thread, its own lock name; the latency of an acquire+release."),
    UNCONTENDED_8(Group.REENTRANT, Kind.REENTRANT, Servers.ONE, "Uncontended, 8 threads", 1, 8, false,
            "eight threads in one JVM, each its own lock name; how well a client shares its connection(s)."),
    CONTENDED(Group.REENTRANT, Kind.REENTRANT, Servers.ONE, "Contended, 8 threads x 2 JVMs, 1 lock", 2, 8, true,
            "two worker JVMs of eight threads each, all on one lock name. Locksmith and Redisson wait for a"
                    + " release through pub/sub; Locksmith also passes the lock straight from a releasing thread to"
                    + " a waiting thread of the same JVM (up to 8 times in a row, then the other JVM gets its turn);"
                    + " the raw client retries its acquire script at once (a polling lock), so its contended number"
                    + " is a reference, not a limit."),
    FAIR(Group.KINDS, Kind.FAIR, Servers.ONE, "Fair, 4 threads x 2 JVMs, 1 lock", 2, 4, true,
            "the fair lock (Locksmith `getFairLock`, Redisson `getFairLock`), two worker JVMs of four threads"
                    + " each on one name: every release hands the lock to the longest waiter, across JVMs, which is"
                    + " what fairness costs. Two JVMs, because within one JVM Locksmith queues waiters locally and"
                    + " the Redis queue would hardly be used."),
    READ(Group.KINDS, Kind.READ, Servers.ONE, "Read lock, 8 threads, 1 name", 1, 8, true,
            "the read side of one read/write lock (`getReadWriteLock(name).readLock()` in both), eight threads"
                    + " of one JVM on the same name and no writer: readers share, so they should not wait for each"
                    + " other. Shared, so the occupancy probe counts no violations here."),
    READ_WRITE_MIXED(Group.KINDS, Kind.READ_WRITE_MIXED, Servers.ONE, "Read/write mixed, 8 threads, 90 % reads, 1 name",
            1, 8, true,
            "one read/write lock, eight threads of one JVM on the same name; each thread takes the write side"
                    + " in one cycle of ten and the read side in the others: readers share with readers, and"
                    + " the occupancy probe counts a reader meeting a writer, or a writer meeting anyone, as a"
                    + " violation."),
    WRITE(Group.KINDS, Kind.WRITE, Servers.ONE, "Write lock, 1 thread", 1, 1, false,
            "the write side of a read/write lock, one thread, its own name: what the read/write bookkeeping"
                    + " adds to an uncontended exclusive lock (compare with *Uncontended, 1 thread*)."),
    MULTI(Group.KINDS, Kind.MULTI_3, Servers.ONE, "Multi-lock of 3, 1 thread", 1, 1, false,
            "one thread taking a multi-lock over three reentrant locks of distinct names (Locksmith"
                    + " `getMultiLock(a, b, c)`, Redisson `getMultiLock(a, b, c)`, a `RedissonMultiLock`). Redisson's"
                    + " other `getMultiLock(group, values)` locks values inside one key in one script; it is not a lock"
                    + " over independent names, so it is not measured."),
    REDLOCK(Group.KINDS, Kind.REENTRANT, Servers.REDLOCK_MASTERS, "RedLock over 3 masters, 1 thread", 1, 1, false,
            "one thread, its own name, on three independent redis-servers of the same machine (not the one"
                    + " above): Locksmith in `RedisMode.REDLOCK`, Redisson with a `RedissonRedLock` over the `RLock`s"
                    + " of three clients, one per master. Redisson deprecates `RedissonRedLock` in favour of `RLock`"
                    + " and `RFencedLock` on one deployment whose replicas acknowledge each lock; that is not the"
                    + " RedLock algorithm, so the deprecated class is the only like-for-like. Calls and server CPU"
                    + " under *Where the time goes* are summed over the three masters."),
    FENCED_1(Group.FENCED, Kind.REENTRANT, Servers.ONE, "Fenced writes, 1 thread", 1, 1, false,
            "one thread, its own lock name: every cycle is one JTA transaction (Narayana) through a"
                    + " `@Locked(\"{0}\") @Transactional` method of a Weld SE bean that writes one row of PostgreSQL"
                    + " (`UPDATE counter SET n = n + 1 WHERE name = ?`), with `fenced = true` and without: the"
                    + " latency that the fence's `UPDATE` adds to a transaction."),
    FENCED_8(Group.FENCED, Kind.REENTRANT, Servers.ONE, "Fenced writes, 8 threads", 1, 8, false,
            "the same with eight threads of one JVM, each its own lock name and row: what the fence's"
                    + " `UPDATE` costs when the database is busy with eight transactions at a time."),
    // The virtual-thread rows need Java 21+; on an older JDK they are left out of the default run
    // and refused by name (VirtualThreadFactory says why).
    VIRTUAL_1(Kind.REENTRANT, "Virtual threads: 1,000 on 1 name", 1,
            "two worker JVMs of 500 virtual threads each (1,000 in all), every one on the same name of the"
                    + " reentrant lock, with the JVM's default carrier pool (one carrier per CPU): what a server"
                    + " whose requests run on virtual threads sees when they all want one lock."),
    VIRTUAL_4(Kind.REENTRANT, "Virtual threads: 1,000 on 4 names", 4,
            "the same 1,000 virtual threads over two worker JVMs, spread over four names of the reentrant"
                    + " lock (250 on each): a few hot names, as a virtual-thread server's requests for a few"
                    + " popular records would take them."),
    // The scale rows: N processes, each one lock manager (or Redisson client) with its own
    // connections and one thread, spread over a few worker JVMs to keep 2 CPUs sane.
    SCALE_REENTRANT_2(Kind.REENTRANT, 2, 1),
    SCALE_REENTRANT_8(Kind.REENTRANT, 4, 2),
    SCALE_REENTRANT_32(Kind.REENTRANT, 4, 8),
    SCALE_FAIR_2(Kind.FAIR, 2, 1),
    SCALE_FAIR_8(Kind.FAIR, 4, 2),
    SCALE_FAIR_32(Kind.FAIR, 4, 8),
    SCALE_WRITE_2(Kind.WRITE, 2, 1),
    SCALE_WRITE_8(Kind.WRITE, 4, 2),
    SCALE_WRITE_32(Kind.WRITE, 4, 8);

    /** The numbers of contending processes {@code --quick} measures in the scale rows. */
    static final List<Integer> QUICK_SCALE = List.of(2, 32);
    /** The kinds the scale rows measure, in the order of the report. */
    static final List<Kind> SCALE_KINDS = List.of(Kind.REENTRANT, Kind.FAIR, Kind.WRITE);

    private final Group group;
    private final Kind kind;
    private final Servers servers;
    private final String label;
    private final int jvms;
    private final int threadsPerJvm;
    private final int managersPerJvm;
    private final int names; // how many names the threads share, 0 for one name per thread
    private final boolean virtualThreads;
    private final String description;

    Scenario(Group group, Kind kind, Servers servers, String label, int jvms, int threadsPerJvm, boolean oneLock,
             String description) {
        this(group, kind, servers, label, jvms, threadsPerJvm, 1, oneLock ? 1 : 0, false, description);
    }

    /**
     * A virtual-thread row: two worker JVMs of 500 virtual threads each, over {@code names} names.
     */
    Scenario(Kind kind, String label, int names, String description) {
        this(Group.KINDS, kind, Servers.ONE, label, 2, 500, 1, names, true, description);
    }

    /**
     * A scale row: {@code jvms * managersPerJvm} processes on one lock name, one thread each.
     */
    Scenario(Kind kind, int jvms, int managersPerJvm) {
        this(Group.SCALE, kind, Servers.ONE, "Scale: " + kind.name().toLowerCase(Locale.ROOT) + ", "
                        + jvms * managersPerJvm + " processes", jvms, managersPerJvm, managersPerJvm,
                1, false, jvms * managersPerJvm + " lock managers (each its own connections, as "
                        + jvms * managersPerJvm + " application servers would have) over " + jvms + " worker JVMs,"
                        + " one thread each, all on one name of the " + kind.name().toLowerCase(Locale.ROOT) + " lock.");
    }

    private Scenario(Group group, Kind kind, Servers servers, String label, int jvms, int threadsPerJvm,
                     int managersPerJvm, int names, boolean virtualThreads, String description) {
        this.group = group;
        this.kind = kind;
        this.servers = servers;
        this.label = label;
        this.jvms = jvms;
        this.threadsPerJvm = threadsPerJvm;
        this.managersPerJvm = managersPerJvm;
        this.names = names;
        this.virtualThreads = virtualThreads;
        this.description = description;
    }

    /**
     * Which part of the run a scenario belongs to: its window length and its chart.
     */
    enum Group {
        /** The plain reentrant lock on one server, against Redisson and the raw limit. */
        REENTRANT("benchmarks.png", "Reentrant lock+unlock throughput on one local redis-server"),
        /** The other lock kinds and RedLock mode, against Redisson's equivalents. */
        KINDS("benchmarks-kinds.png", "Fair, read, write, multi-lock and RedLock: lock+unlock throughput"),
        /**
         * A {@code @Locked @Transactional} method writing one row of PostgreSQL, with and without
         * {@code fenced = true}: what the fence costs a transaction.
         */
        FENCED("benchmarks-fenced.png", "Fenced writes: a @Locked transaction writing one row of PostgreSQL"),
        /** One lock name contended by 2, 8 and 32 processes: how a hand-off's cost grows with N. */
        SCALE("benchmarks-scale.png", "Throughput against the number of contending processes, one lock name");

        private final String chart;
        private final String title;

        Group(String chart, String title) {
            this.chart = chart;
            this.title = title;
        }

        /**
         * @return the file name of this group's chart, next to the report
         */
        String chart() {
            return chart;
        }

        /**
         * @return the chart's heading, also its alt text in the report
         */
        String title() {
            return title;
        }
    }

    /**
     * The kind of lock every cycle takes and releases.
     */
    enum Kind {
        REENTRANT,
        FAIR,
        /** Shared: readers may hold it together. */
        READ,
        WRITE,
        /** The write side once in {@link #WRITE_EVERY} cycles of a thread, the read side otherwise. */
        READ_WRITE_MIXED,
        /** One multi-lock over three reentrant locks, named by {@link #memberNames}. */
        MULTI_3;

        /** A thread of {@link #READ_WRITE_MIXED} writes in one cycle of this many. */
        static final int WRITE_EVERY = 10;

        /**
         * @return the names of the locks a {@link #MULTI_3} lock called {@code name} holds together
         */
        static List<String> memberNames(String name) {
            return List.of(name + ":a", name + ":b", name + ":c");
        }
    }

    /**
     * Which redis-servers a scenario's locks live on.
     */
    enum Servers {
        /** The one server every single-node scenario shares. */
        ONE,
        /** Three more servers, independent masters for RedLock. */
        REDLOCK_MASTERS
    }

    /**
     * @return the scenarios of one group, in declaration order
     */
    static List<Scenario> of(Group group) {
        return Arrays.stream(values()).filter(s -> s.group == group).toList();
    }

    Group group() {
        return group;
    }

    Kind kind() {
        return kind;
    }

    Servers servers() {
        return servers;
    }

    String label() {
        return label;
    }

    /**
     * @return one sentence or three for the report: what runs and why it is shaped so
     */
    String description() {
        return description;
    }

    int jvms() {
        return jvms;
    }

    /**
     * @return how many lock managers (Redisson clients) each worker JVM connects, each standing
     *         for one application process with its own connections; 1 except in the scale rows
     */
    int managersPerJvm() {
        return managersPerJvm;
    }

    /**
     * @return the index, among this JVM's managers, of the one thread {@code thread} uses
     */
    int managerOf(int thread) {
        return thread % managersPerJvm;
    }

    /**
     * @return how many processes (lock managers) contend, over all worker JVMs
     */
    int processes() {
        return jvms * managersPerJvm;
    }

    /**
     * @return true where every cycle writes to the benchmark's PostgreSQL: the fenced-writes rows
     */
    boolean usesDatabase() {
        return group == Group.FENCED;
    }

    /**
     * @return true where the hand-off latency between processes is measured: the scale rows
     */
    boolean measuresHandOffs() {
        return group == Group.SCALE;
    }

    /**
     * @param family {@code scale} or {@code scale_<kind>}, in any case
     * @param quick  true for the processes {@code --quick} measures only ({@link #QUICK_SCALE})
     * @return the scale rows of that family, in declaration order; empty for any other name
     */
    static List<Scenario> scaleFamily(String family, boolean quick) {
        String name = family.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(s -> s.group == Group.SCALE)
                .filter(s -> name.equals("scale") || name.equals("scale_" + s.kind.name().toLowerCase(Locale.ROOT)))
                .filter(s -> !quick || QUICK_SCALE.contains(s.processes()))
                .toList();
    }

    int threadsPerJvm() {
        return threadsPerJvm;
    }

    /**
     * @return true where the worker threads are virtual threads (Java 21+), not platform threads
     */
    boolean virtualThreads() {
        return virtualThreads;
    }

    /**
     * @return how many distinct locks the threads of all JVMs use
     */
    int lockCount() {
        return names > 0 ? names : jvms * threadsPerJvm;
    }

    /**
     * @return true if several threads take the same lock
     */
    boolean sharesLocks() {
        return lockCount() < jvms * threadsPerJvm;
    }

    /**
     * @return the index, among {@link #lockCount()}, of the lock that thread {@code thread} of
     *         worker JVM {@code jvm} takes
     */
    int lockIndex(int jvm, int thread) {
        int index = jvm * threadsPerJvm + thread;
        return names > 0 ? index % names : index;
    }

    /**
     * @param run a prefix unique to one measurement, so no measurement meets another's keys
     * @return the name of lock {@code index}
     */
    String lockName(String run, int index) {
        return "bench:" + run + ":" + index;
    }
}
