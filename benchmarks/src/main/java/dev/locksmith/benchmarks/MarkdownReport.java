package dev.locksmith.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Renders a run as {@code docs/BENCHMARKS.md}: how it was produced, the throughput table, the
 * Locksmith ratios of every scenario (against the targets, with an honest verdict, where
 * it set one), the mutual exclusion check, and what Redis executed per cycle.
 */
final class MarkdownReport {
    private final Results results;
    private final MachineInfo machine;
    private final BenchmarkOptions options;
    private final Duration took;

    /**
     * @param took how long the whole run took, for whoever plans the next one
     */
    MarkdownReport(Results results, MachineInfo machine, BenchmarkOptions options, Duration took) {
        this.results = results;
        this.machine = machine;
        this.options = options;
        this.took = took;
    }

    /**
     * @return the whole document
     */
    String render() {
        StringBuilder md = new StringBuilder();
        md.append("# Benchmarks\n\n");
        md.append("Lock+unlock throughput of Locksmith, Redisson and the raw limit (two EVALSHA round trips per\n")
                .append("cycle on one Lettuce connection), all against the same local `redis-server`s in one run; the raw\n")
                .append("limit is measured for the plain reentrant lock only. For each scenario, every contender's worker\n")
                .append("JVMs start once and cycle uncounted until the JIT compiler has settled (").append(warmups())
                .append(");\nthen the contenders take turns, ").append(settling())
                .append(times(options.repetitions()))
                .append(" each (").append(times(options.repetitions(Scenario.Group.SCALE)))
                .append(" in the scale rows), every turn ").append(ScenarioRunner.LEAD_IN.toSeconds()).append(" s uncounted and ")
                .append(counted()).append(" counted. The servers are emptied before every turn.\n")
                .append("The critical section is empty, except in the fenced-writes rows. The whole run took ")
                .append(minutes(took)).append(".\n\n");
        md.append("Produced on ").append(machine.date()).append(" by:\n\n```\n").append(options.command()).append("\n```\n\n");
        md.append("Machine: ").append(machine.processors()).append(" CPUs (").append(machine.cpu()).append("), ")
                .append(machine.os()).append("; ").append(machine.java()).append("; redis-server ").append(machine.redis())
                .append("; ").append(machine.libraries())
                .append(machine.database().isEmpty() ? "" : "; " + machine.database())
                .append(". The worker JVMs and servers share these CPUs.\n")
                .append("Load average (1 / 5 / 15 min) at the start: ").append(machine.loadAtStart()).append("; at the end: ")
                .append(MachineInfo.loadAverage()).append(". A load above the CPU count means other processes competed\n")
                .append("for the CPUs during the run: the absolute numbers are then low and noisy, the interleaved ratios less so.\n\n");
        for (Scenario.Group group : options.groups()) {
            if (group != Scenario.Group.SCALE && group != Scenario.Group.FENCED) {
                md.append("![").append(group.title()).append("](").append(group.chart()).append(")\n\n");
            }
        }
        budgets(md);
        throughput(md);
        ratios(md);
        scale(md);
        fenced(md);
        exclusion(md);
        commands(md);
        variants(md);
        md.append("## What each scenario does\n\n");
        for (Scenario scenario : options.scenarios().stream().filter(s -> s.group() != Scenario.Group.SCALE).toList()) {
            md.append("- **").append(scenario.label()).append("**: ").append(scenario.description()).append('\n');
        }
        return md.toString();
    }

    private void throughput(StringBuilder md) {
        if (lockRows().isEmpty()) {
            return;
        }
        md.append("## Throughput (lock+unlock cycles per second)\n\n");
        md.append("Median of the repetitions in bold, each repetition in parentheses; -- where a contender has\n")
                .append("nothing to measure.\n\n");
        List<Contender> columns = options.contenders().stream()
                .filter(contender -> lockRows().stream().anyMatch(contender::measures)).toList();
        md.append("| Scenario |");
        columns.forEach(c -> md.append(' ').append(c.label()).append(" |"));
        md.append("\n|---|");
        columns.forEach(c -> md.append("---:|"));
        md.append('\n');
        for (Scenario scenario : lockRows()) {
            md.append("| ").append(scenario.label()).append(" |");
            for (Contender contender : columns) {
                md.append(' ').append(contender.measures(scenario) ? withRepetitions(contender, scenario) : "--").append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private void ratios(StringBuilder md) {
        if (lockRows().isEmpty()) {
            return;
        }
        md.append("## Ratios and targets\n\n");
        md.append("Targets from the benchmark issue: every Locksmith row >= 1.5 x Redisson in the same run, and\n")
                .append("uncontended >= 0.9 x the raw limit. Ratios are of the medians of the interleaved repetitions;\n")
                .append("rows without a target are for reference.\n\n");
        md.append("| Scenario | Ratio | Measured | Target | Verdict |\n|---|---|---:|---:|---|\n");
        for (Scenario scenario : lockRows()) {
            for (Target target : Target.of(scenario)) {
                if (!options.contenders().contains(target.measured()) || !options.contenders().contains(target.baseline())) {
                    continue;
                }
                OptionalDouble ratio = target.ratio(results);
                md.append("| ").append(scenario.label()).append(" | ").append(target.measured().label()).append(" / ")
                        .append(target.baseline().label())
                        .append(target.note().isEmpty() ? "" : " (" + target.note() + ")")
                        .append(" | ").append(ratio.isPresent() ? ratio(ratio.getAsDouble()) : "n/a")
                        .append(" | ").append(target.atLeast().isPresent() ? ">= " + ratio(target.atLeast().getAsDouble()) : "none")
                        .append(" | ").append(target.verdict(results)).append(" |\n");
            }
        }
        md.append('\n');
    }

    private void budgets(StringBuilder md) {
        if (options.scenarios().stream().noneMatch(scenario -> CallBudget.of(scenario).isPresent())) {
            return;
        }
        md.append("## Redis work per cycle against the issue's budgets\n\n");
        md.append("Counted by Redis (`INFO commandstats`) over the counted window of Locksmith's median repetition,\n")
                .append("divided by its cycles: these figures do not depend on the machine's load, so they come first.\n")
                .append("*Redis calls* counts every script call and every command a script runs; *script calls* counts\n")
                .append("the requests alone.\n\n");
        md.append("| Scenario | Counted | Locksmith | Budget | Verdict | Redisson, same count |\n|---|---|---:|---:|---|---:|\n");
        for (Scenario scenario : options.scenarios()) {
            Optional<CallBudget> budget = CallBudget.of(scenario);
            Optional<Measurement> locksmith = results.medianRepetition(Contender.LOCKSMITH, scenario);
            if (budget.isEmpty() || locksmith.isEmpty()) {
                continue;
            }
            Optional<Measurement> redisson = results.medianRepetition(Contender.REDISSON, scenario);
            md.append("| ").append(scenario.label()).append(" | ").append(budget.get().what()).append(" | ")
                    .append(decimal(budget.get().count().applyAsDouble(locksmith.get()))).append(" | <= ")
                    .append(decimal(budget.get().atMost())).append(" | ").append(budget.get().verdict(locksmith.get()))
                    .append(" | ").append(redisson.map(m -> decimal(budget.get().count().applyAsDouble(m))).orElse("n/a"))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private void exclusion(StringBuilder md) {
        md.append("## Mutual exclusion\n\n");
        md.append("Every cycle entered an occupancy counter that all worker JVMs of a measurement share through a\n")
                .append("memory-mapped file; an exclusive holder (a write lock's too) finding anyone inside, or a reader\n")
                .append("finding an exclusive holder, counts as a violation. Violations: **")
                .append(results.violations()).append("** in ").append(String.format(Locale.ROOT, "%,d", results.cycles()))
                .append(" counted cycles")
                .append(results.violations() == 0 ? "." : " -- THESE NUMBERS ARE OF A BROKEN LOCK.").append("\n\n");
        for (Scenario scenario : lockRows()) {
            if (scenario.jvms() < 2) {
                continue;
            }
            md.append("Share of the cycles of *").append(scenario.label()).append("* taken by each worker JVM, per repetition:\n\n");
            for (Contender contender : options.contenders(scenario)) {
                String shares = results.of(contender, scenario).stream()
                        .map(MarkdownReport::shares).collect(Collectors.joining("; "));
                md.append("- ").append(contender.label()).append(": ").append(shares.isEmpty() ? "n/a" : shares).append('\n');
            }
            md.append('\n');
        }
    }

    /**
     * @return the scenarios chosen outside the scale and fenced-writes rows, which have sections of their own
     */
    private List<Scenario> lockRows() {
        return options.scenarios().stream()
                .filter(s -> s.group() != Scenario.Group.SCALE && s.group() != Scenario.Group.FENCED).toList();
    }

    private void scale(StringBuilder md) {
        if (!options.groups().contains(Scenario.Group.SCALE)) {
            return;
        }
        md.append("## Scale: one lock name, 2 to 32 contending processes\n\n");
        md.append("N processes, each a lock manager with its own Redis connections (Locksmith a `LockManager`,\n")
                .append("Redisson a `RedissonClient`), as N application servers would have, and one thread that locks and\n")
                .append("unlocks one shared name in a loop with an empty critical section. The processes are spread over\n")
                .append("worker JVMs to keep the machine sane: 2 JVMs of 1 for N = 2, 4 JVMs of 2 for N = 8, 4 JVMs of 8\n")
                .append("for N = 32. The rows of one kind take turns with each other as well as between the contenders,\n")
                .append("so that N / 2 is a ratio of interleaved medians. Windows of their own (").append(scaleWarmups())
                .append(" s warm-up, ").append(options.settlingTurns()).append(" uncounted turns, ")
                .append(options.measure(Scenario.Group.SCALE).toSeconds())
                .append(" s counted, ").append(times(options.repetitions(Scenario.Group.SCALE))).append(").\n")
                .append("*Cycles/s* is the median of the repetitions; *calls* are Redis calls per cycle (`INFO commandstats`,\n")
                .append("every command, those run by scripts included) over the median repetition; *N / 2* is\n")
                .append("Locksmith's throughput at N over its throughput at 2 processes. At N = 32 a process's turn comes\n")
                .append("round every 32nd hand-off, so each step of a hand-off (the offer reaching the pub/sub thread,\n")
                .append("which sends the waiting thread's attempt; the answer reaching the I/O thread; the waiting thread\n")
                .append("woken holding the lock) wakes a thread that slept for milliseconds, in one of 4 JVMs instead of\n")
                .append("2: on 2 shared CPUs those wake-ups are most of what N costs (client CPU per cycle grows, calls\n")
                .append("per cycle do not); Redis time per cycle grows a little with the ring of waiting processes that\n")
                .append("each hand-off rewrites (12 bytes per process). Cycles/s there follow the machine's load and, after a short warm-up\n")
                .append("(`--quick`), code the JIT compiler has not finished with; calls per cycle follow neither.\n\n");
        md.append("*Hand-off* is the time from a holder's `unlock()` call to `lock()` returning in another process,\n")
                .append("over every such hand-off of the median repetition, p50 / p99 in µs; *hand-offs* is the share of\n")
                .append("the acquisitions that took the lock from another process (in the others, the releasing process\n")
                .append("took it again before anyone else). *Release* is the releasers' own `unlock()` call, from the\n")
                .append("same stamp to its return, p50 over every release of the median repetition: the release's round\n")
                .append("trip, which every hand-off contains (the script that answers the releaser is the one that tells\n")
                .append("the next process), so hand-off minus release is what the lock's passing costs beyond it.\n")
                .append("The holder stamps the time, still holding the lock, right before it calls `unlock()`, into a file\n")
                .append("that all worker JVMs map; the next holder reads it right after `lock()` returned. Stamping after\n")
                .append("`unlock()` returned would race: Redis publishes a release before it answers it, so the next\n")
                .append("holder can hold the lock before the releaser knows it released. The clock is the system UTC\n")
                .append("clock (`CLOCK_REALTIME`, read to the nanosecond), which every JVM of the machine shares\n")
                .append("(`System.nanoTime()` is defined within one JVM only); a reading costs about 50 ns, NTP slews it by\n")
                .append("at most 0.05 % of the interval, and the histogram buckets are 1 µs wide below 128 µs and 1.6 %\n")
                .append("wide above: the error is well under 1 µs plus 2 %.\n\n");
        md.append("![").append(Scenario.Group.SCALE.title()).append("](").append(Scenario.Group.SCALE.chart()).append(")\n\n");
        for (Scenario.Kind kind : Scenario.SCALE_KINDS) {
            List<Scenario> rows = ScaleChart.scenarios(options, kind);
            if (rows.isEmpty()) {
                continue;
            }
            Optional<Scenario> two = rows.stream().filter(s -> s.processes() == 2).findFirst();
            md.append("### ").append(ScaleChart.kindTitle(kind)).append("\n\n");
            md.append("| N | Locksmith cycles/s | Locksmith calls | Redisson cycles/s | Redisson calls | Locksmith / Redisson")
                    .append(" | Locksmith N / 2 | Locksmith hand-off p50 / p99 µs | Redisson hand-off p50 / p99 µs")
                    .append(" | Hand-offs, Locksmith / Redisson | Release p50 µs, Locksmith / Redisson |\n")
                    .append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (Scenario scenario : rows) {
                OptionalDouble locksmith = results.medianOps(Contender.LOCKSMITH, scenario);
                OptionalDouble redisson = results.medianOps(Contender.REDISSON, scenario);
                Optional<Measurement> locksmithMedian = results.medianRepetition(Contender.LOCKSMITH, scenario);
                Optional<Measurement> redissonMedian = results.medianRepetition(Contender.REDISSON, scenario);
                OptionalDouble perTwo = two.map(s -> ScaleChart.keeps(results, Contender.LOCKSMITH, s, scenario))
                        .orElse(OptionalDouble.empty());
                md.append("| ").append(scenario.processes())
                        .append(" | ").append(locksmith.isPresent() ? ops(locksmith.getAsDouble()) : "n/a")
                        .append(" | ").append(locksmithMedian.map(m -> decimal(m.commandsPerCycle())).orElse("n/a"))
                        .append(" | ").append(redisson.isPresent() ? ops(redisson.getAsDouble()) : "n/a")
                        .append(" | ").append(redissonMedian.map(m -> decimal(m.commandsPerCycle())).orElse("n/a"))
                        .append(" | ").append(locksmith.isPresent() && redisson.isPresent() && redisson.getAsDouble() > 0
                                ? ratio(locksmith.getAsDouble() / redisson.getAsDouble()) : "n/a")
                        .append(" | ").append(perTwo.isPresent() ? ratio(perTwo.getAsDouble()) : "n/a")
                        .append(" | ").append(locksmithMedian.map(MarkdownReport::handOffs).orElse("n/a"))
                        .append(" | ").append(redissonMedian.map(MarkdownReport::handOffs).orElse("n/a"))
                        .append(" | ").append(locksmithMedian.map(MarkdownReport::handOffShare).orElse("n/a"))
                        .append(" / ").append(redissonMedian.map(MarkdownReport::handOffShare).orElse("n/a"))
                        .append(" | ").append(locksmithMedian.map(MarkdownReport::releaseMedian).orElse("n/a"))
                        .append(" / ").append(redissonMedian.map(MarkdownReport::releaseMedian).orElse("n/a"))
                        .append(" |\n");
            }
            md.append('\n');
        }
    }

    private void fenced(StringBuilder md) {
        List<Scenario> rows = options.scenarios().stream().filter(Scenario::usesDatabase).toList();
        if (rows.isEmpty()) {
            return;
        }
        md.append("## Fenced writes: what `fenced = true` costs a transaction\n\n");
        md.append("Every cycle is one JTA transaction (Narayana, a one-phase commit of its one XA resource) begun by\n")
                .append("`@Transactional` on a `@Locked(\"{0}\")` method of a Weld SE bean, which writes one row of\n")
                .append("PostgreSQL (`UPDATE counter SET n = n + 1 WHERE name = ?`, its lock's name as the row's) through the\n")
                .append("application's data source, a pool of XA connections as a server's. *Fenced* is the same method\n")
                .append("with `@Locked(value = \"{0}\", fenced = true)`: Locksmith's interceptor first checks the lock's\n")
                .append("fencing token in that transaction, on the same connection ([fencing.md](fencing.md#the-check)).\n")
                .append("The lock is released after the commit, so each transaction holds it throughout. The two variants\n")
                .append("take turns, each in a worker JVM of its own, ").append(options.warmup(Scenario.Group.FENCED).toSeconds())
                .append(" s warm-up, ").append(options.measure(Scenario.Group.FENCED).toSeconds())
                .append(" s counted. The database (").append(machine.database())
                .append(") is the run's own, on the same CPUs, with PostgreSQL's default settings:\n")
                .append("each commit waits until its WAL is flushed to disk. The fence table holds one row per lock name.\n\n");
        md.append("What the database and Redis executed per transaction, over the counted window of the median\n")
                .append("repetition: `pg_stat_statements` of the workers' database user, divided by the `COMMIT`s it counted\n")
                .append("(the `BEGIN` and `COMMIT` that the driver sends are statements too, each a round trip), and\n")
                .append("`INFO commandstats`, divided by the cycles. Load cannot move these.\n\n");
        md.append("| Scenario | Variant | Statements | Rows changed | Statements by text | Redis calls |\n")
                .append("|---|---|---:|---:|---|---:|\n");
        for (Scenario scenario : rows) {
            for (Contender contender : options.contenders(scenario)) {
                Optional<Measurement> median = results.medianRepetition(contender, scenario);
                if (median.isEmpty()) {
                    continue;
                }
                Measurement measured = median.get();
                md.append("| ").append(scenario.label()).append(" | ").append(ChartFrame.shortName(contender))
                        .append(" | ").append(decimal(measured.statements().statementsPerTransaction()))
                        .append(" | ").append(decimal(measured.statements().rowsChangedPerTransaction()))
                        .append(" | ").append(statements(measured))
                        .append(" | ").append(decimal(measured.commandsPerCycle())).append(" |\n");
            }
        }
        md.append('\n');
        md.append("Throughput: transactions per second, the median of the interleaved repetitions (each in\n")
                .append("parentheses); *per transaction* is the time a thread spends on one (threads / throughput);\n")
                .append("*fenced / unfenced* is the ratio of the medians, and *added* what the fence adds to each\n")
                .append("transaction.\n\n");
        md.append("| Scenario | Unfenced | Fenced | Fenced / unfenced | Per transaction, unfenced / fenced | Added |\n")
                .append("|---|---:|---:|---:|---:|---:|\n");
        List<String> closing = new ArrayList<>();
        for (Scenario scenario : rows) {
            OptionalDouble plain = results.medianOps(Contender.LOCKSMITH_TRANSACTION, scenario);
            OptionalDouble fenced = results.medianOps(Contender.LOCKSMITH_FENCED, scenario);
            if (plain.isEmpty() || fenced.isEmpty()) {
                continue;
            }
            double plainMicros = scenario.threadsPerJvm() * 1e6 / plain.getAsDouble();
            double fencedMicros = scenario.threadsPerJvm() * 1e6 / fenced.getAsDouble();
            double ratio = fenced.getAsDouble() / plain.getAsDouble();
            md.append("| ").append(scenario.label())
                    .append(" | ").append(withRepetitions(Contender.LOCKSMITH_TRANSACTION, scenario))
                    .append(" | ").append(withRepetitions(Contender.LOCKSMITH_FENCED, scenario))
                    .append(" | ").append(ratio(ratio))
                    .append(" | ").append(micros(plainMicros)).append(" / ").append(micros(fencedMicros))
                    .append(" | ").append(signedMicros(fencedMicros - plainMicros)).append(" |\n");
            closing.add(String.format(Locale.ROOT, "%s per transaction at %d thread%s (fenced / unfenced %.2f)",
                    signedMicros(fencedMicros - plainMicros), scenario.threadsPerJvm(),
                    scenario.threadsPerJvm() == 1 ? "" : "s", ratio));
        }
        md.append('\n');
        md.append("![").append(Scenario.Group.FENCED.title()).append("](").append(Scenario.Group.FENCED.chart()).append(")\n\n");
        if (!closing.isEmpty()) {
            md.append("In this run the fence cost ").append(String.join(", and ", closing))
                    .append(": one more statement\n")
                    .append("per transaction, a round trip to the database, and no Redis call.\n");
        }
        md.append("Redisson has no equivalent: its `RFencedLock` hands out a token, and nothing checks it in the\n")
                .append("database, so it has no row here.\n\n");
    }

    /**
     * @return the median throughput of one contender in one scenario in bold, each repetition's in
     *         parentheses; "n/a" when it was not measured
     */
    private String withRepetitions(Contender contender, Scenario scenario) {
        OptionalDouble median = results.medianOps(contender, scenario);
        String each = results.of(contender, scenario).stream()
                .map(m -> ops(m.opsPerSecond())).collect(Collectors.joining(" / "));
        return median.isPresent() ? "**" + ops(median.getAsDouble()) + "** (" + each + ")" : "n/a";
    }

    /**
     * @return each statement's calls per transaction, most first, such as {@code `COMMIT` 1.00}
     */
    private static String statements(Measurement measurement) {
        DatabaseStats statements = measurement.statements();
        // By the figure as printed, then by text: a count one above another's must not reorder equal figures.
        Comparator<Map.Entry<String, Long>> printed = Comparator.comparingLong(
                entry -> -Math.round(100 * statements.perTransaction(entry.getValue())));
        return statements.calls().entrySet().stream()
                .sorted(printed.thenComparing(Map.Entry.comparingByKey()))
                .filter(entry -> statements.perTransaction(entry.getValue()) >= 0.005)
                .map(entry -> "`" + entry.getKey() + "` " + decimal(statements.perTransaction(entry.getValue())))
                .collect(Collectors.joining(", "));
    }

    private static String micros(double micros) {
        return String.format(Locale.ROOT, "%,.0f µs", micros);
    }

    private static String signedMicros(double micros) {
        return String.format(Locale.ROOT, "%+,.0f µs", micros);
    }

    private static String handOffs(Measurement measurement) {
        HandOffLatency latency = measurement.handOffs();
        return latency.count() == 0 ? "none" : String.format(Locale.ROOT, "%,.0f / %,.0f", latency.p50Micros(),
                latency.p99Micros());
    }

    private static String releaseMedian(Measurement measurement) {
        double micros = measurement.handOffs().releaseP50Micros();
        return Double.isNaN(micros) ? "n/a" : String.format(Locale.ROOT, "%,.0f", micros);
    }

    private static String handOffShare(Measurement measurement) {
        double share = measurement.handOffs().share();
        return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }

    private void commands(StringBuilder md) {
        md.append("## Where the time goes, per cycle\n\n");
        md.append("Over the counted window of the median repetition, divided by the cycles counted. *Calls* are from\n")
                .append("`INFO commandstats`, which counts the commands a script runs as well as the script call, so\n")
                .append("the requests a client sends are the *script calls* (`evalsha`/`eval`) plus any command not run by\n")
                .append("a script; requests sent together before any answer (a multi-lock's, RedLock's) share a round trip.\n")
                .append("PING is left out everywhere: the idle pooled connections of the contender not being measured\n")
                .append("(Redisson checks each one every 30 s) send it during the other's window too.\n")
                .append("*Script us* is the time Redis spent inside `evalsha`/`eval` (their commands included), measured\n")
                .append("by Redis as wall time: a busy machine that takes the CPU from Redis in the middle of a script\n")
                .append("inflates it, so it is steadier at 8 threads (Redis always busy) than at 1.\n")
                .append("*Server CPU* is the whole redis-server process (`INFO cpu`, network I/O included);\n")
                .append("*client CPU* is all threads of the worker JVM(s). RedLock sums calls and server CPU over its three\n")
                .append("masters. With ").append(machine.processors())
                .append(" CPUs shared by both, a CPU-bound scenario cannot exceed\n")
                .append(machine.processors()).append(" s / (server + client CPU per cycle): the *CPU ceiling*, in cycles per second.\n\n");
        md.append("| Scenario | Contender | Calls | Script calls | Script us | Server CPU us | Client CPU us | CPU ceiling | Calls by command |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (Scenario scenario : options.scenarios()) {
            for (Contender contender : options.contenders(scenario)) {
                Optional<Measurement> typical = results.medianRepetition(contender, scenario);
                if (typical.isEmpty()) {
                    continue;
                }
                Measurement median = typical.get();
                double cpuMicros = median.serverCpuMicrosPerCycle() + median.clientCpuMicrosPerCycle();
                md.append("| ").append(scenario.label()).append(" | ").append(contender.label()).append(" | ")
                        .append(decimal(median.commandsPerCycle())).append(" | ").append(decimal(median.scriptCallsPerCycle()))
                        .append(" | ").append(decimal(median.scriptMicrosPerCycle()))
                        .append(" | ").append(decimal(median.serverCpuMicrosPerCycle()))
                        .append(" | ").append(decimal(median.clientCpuMicrosPerCycle()))
                        .append(" | ").append(Double.isNaN(cpuMicros) ? "n/a" : ops(machine.processors() * 1e6 / cpuMicros))
                        .append(" | ").append(breakdown(median)).append(" |\n");
            }
        }
        md.append('\n');
    }

    private void variants(StringBuilder md) {
        List<String> rows = new ArrayList<>();
        for (Scenario scenario : options.scenarios()) {
            Optional<Measurement> plain = results.medianRepetition(Contender.LOCKSMITH, scenario);
            OptionalDouble plainOps = results.medianOps(Contender.LOCKSMITH, scenario);
            for (Contender variant : List.of(Contender.LOCKSMITH_TELEMETRY, Contender.LOCKSMITH_LOCKED)) {
                Optional<Measurement> measured = results.medianRepetition(variant, scenario);
                OptionalDouble variantOps = results.medianOps(variant, scenario);
                if (plain.isEmpty() || measured.isEmpty() || plainOps.isEmpty() || variantOps.isEmpty()) {
                    continue;
                }
                rows.add("| " + scenario.label() + " | " + variant.label() + " | "
                        + decimal(plain.get().commandsPerCycle()) + " / " + decimal(measured.get().commandsPerCycle()) + " | "
                        + decimal(plain.get().clientCpuMicrosPerCycle()) + " / "
                        + decimal(measured.get().clientCpuMicrosPerCycle()) + " | "
                        + ratio(variantOps.getAsDouble() / plainOps.getAsDouble()) + " |");
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        md.append("## What telemetry and `@Locked` cost\n\n");
        md.append("*Locksmith, OpenTelemetry on* is the same client with an OpenTelemetry SDK that records every\n")
                .append("metric of [observability.md](observability.md) and collects them every second, as a MicroProfile\n")
                .append("Telemetry server does, into an exporter that discards them (no network is measured).\n")
                .append("*Locksmith, @Locked via Weld* takes the same lock through a `@Locked(\"{0}\")` method of a bean in\n")
                .append("Weld SE, so the interceptor, the lock name template and the CDI proxies are all in each cycle.\n")
                .append("Neither adds a Redis call; what they cost is client CPU.\n\n");
        md.append("| Scenario | Variant | Redis calls per cycle, plain / variant | Client CPU us per cycle, plain / variant | Throughput, variant / plain |\n")
                .append("|---|---|---:|---:|---:|\n");
        rows.forEach(row -> md.append(row).append('\n'));
        md.append('\n');
    }

    private static String breakdown(Measurement measurement) {
        double cycles = Math.max(1, measurement.cycles());
        return measurement.commands().calls().entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
                .filter(entry -> entry.getValue() / cycles >= 0.005)
                .map(entry -> "`" + entry.getKey() + "` " + decimal(entry.getValue() / cycles))
                .collect(Collectors.joining(", "));
    }

    private static String shares(Measurement measurement) {
        double total = Math.max(1, measurement.cycles());
        return measurement.cyclesPerJvm().stream()
                .map(cycles -> String.format(Locale.ROOT, "%.0f%%", 100 * cycles / total))
                .collect(Collectors.joining(" / "));
    }

    private static String times(int count) {
        return count == 1 ? "once" : count == 2 ? "twice" : count + " times";
    }

    private String warmups() {
        return options.warmup(Scenario.Group.REENTRANT).toSeconds() + " s for the reentrant lock, "
                + options.warmup(Scenario.Group.KINDS).toSeconds() + " s for the other kinds and RedLock, "
                + options.warmup(Scenario.Group.FENCED).toSeconds() + " s for the fenced writes, "
                + scaleWarmups() + " s for the scale rows";
    }

    /**
     * @return the scale rows' warm-ups at 2, 8 and 32 processes, such as {@code 20 / 30 / 60}
     */
    private String scaleWarmups() {
        return Stream.of(Scenario.SCALE_REENTRANT_2, Scenario.SCALE_REENTRANT_8, Scenario.SCALE_REENTRANT_32)
                .map(scenario -> Long.toString(options.warmup(scenario).toSeconds())).collect(Collectors.joining(" / "));
    }

    /**
     * @return the settling turns before the counted ones, as the start of a phrase; empty without any
     */
    private String settling() {
        int turns = options.settlingTurns();
        if (turns == 0) {
            return "";
        }
        return times(turns) + " uncounted (the first turns after the warm-up start after a pause, as the\n"
                + "warm-up did not, and the JIT compiler's log shows the hot acquisition path deoptimized at their start),\n"
                + "then ";
    }

    private String counted() {
        return options.measure(Scenario.Group.REENTRANT).toSeconds() + " s (reentrant), "
                + options.measure(Scenario.Group.KINDS).toSeconds() + " s (the other kinds), "
                + options.measure(Scenario.Group.FENCED).toSeconds() + " s (the fenced writes) or "
                + options.measure(Scenario.Group.SCALE).toSeconds() + " s (the scale rows)";
    }

    private static String minutes(Duration duration) {
        return duration.toMinutes() + " min " + duration.toSecondsPart() + " s";
    }

    static String ops(double opsPerSecond) {
        return String.format(Locale.ROOT, "%,.0f", opsPerSecond);
    }

    private static String ratio(double ratio) {
        return String.format(Locale.ROOT, "%.2f", ratio);
    }

    private static String decimal(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2f", value);
    }
}
