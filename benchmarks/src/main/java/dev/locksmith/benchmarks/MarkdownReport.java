package dev.locksmith.benchmarks;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * Renders a run as {@code docs/BENCHMARKS.md}: how it was produced, the throughput table, the
 * ratios against the targets with an honest verdict, the mutual exclusion check, and
 * what Redis executed per cycle.
 */
final class MarkdownReport {
    /** The chart's file name, next to the report. */
    static final String CHART = "benchmarks.png";

    private final Results results;
    private final MachineInfo machine;
    private final BenchmarkOptions options;

    MarkdownReport(Results results, MachineInfo machine, BenchmarkOptions options) {
        this.results = results;
        this.machine = machine;
        this.options = options;
    }

    /**
     * @return the whole document
     */
    String render() {
        StringBuilder md = new StringBuilder();
        md.append("# Benchmarks\n\n");
        md.append("Lock+unlock throughput of Locksmith, Redisson and the raw limit (two EVALSHA round trips per\n")
                .append("cycle on one Lettuce connection), all against the same local `redis-server` in one run.\n")
                .append("Every measurement runs in fresh worker JVMs: ").append(seconds(options.warmup()))
                .append(" warm-up, then ").append(seconds(options.measure())).append(" counted; each contender ran each scenario ")
                .append(options.repetitions()).append(" times, interleaved. The critical section is empty.\n\n");
        md.append("Produced on ").append(machine.date()).append(" by:\n\n```\n").append(options.command()).append("\n```\n\n");
        md.append("Machine: ").append(machine.processors()).append(" CPUs (").append(machine.cpu()).append("), ")
                .append(machine.os()).append("; ").append(machine.java()).append("; redis-server ").append(machine.redis())
                .append("; ").append(machine.libraries()).append(". The worker JVMs and redis-server share these CPUs.\n")
                .append("Load average (1 / 5 / 15 min) at the start: ").append(machine.loadAtStart()).append("; at the end: ")
                .append(MachineInfo.loadAverage()).append(". A load above the CPU count means other processes competed\n")
                .append("for the CPUs during the run: the absolute numbers are then low and noisy, the interleaved ratios less so.\n\n");
        md.append("![Throughput per scenario](").append(CHART).append(")\n\n");
        throughput(md);
        targets(md);
        exclusion(md);
        commands(md);
        md.append("## What each scenario does\n\n")
                .append("- **Uncontended, 1 thread**: one thread, its own lock name; the latency of an acquire+release.\n")
                .append("- **Uncontended, 8 threads**: eight threads in one JVM, each its own lock name; how well a client\n")
                .append("  shares its connection(s).\n")
                .append("- **Contended**: two worker JVMs of eight threads each, all on one lock name. Locksmith and\n")
                .append("  Redisson wait for a release through pub/sub; the raw client retries its acquire script at once\n")
                .append("  (a polling lock), so its contended number is a reference, not a limit.\n");
        return md.toString();
    }

    private void throughput(StringBuilder md) {
        md.append("## Throughput (lock+unlock cycles per second)\n\n");
        md.append("Median of the repetitions in bold, each repetition in parentheses.\n\n");
        md.append("| Scenario |");
        options.contenders().forEach(c -> md.append(' ').append(c.label()).append(" |"));
        md.append("\n|---|");
        options.contenders().forEach(c -> md.append("---:|"));
        md.append('\n');
        for (Scenario scenario : Scenario.values()) {
            md.append("| ").append(scenario.label()).append(" |");
            for (Contender contender : options.contenders()) {
                OptionalDouble median = results.medianOps(contender, scenario);
                String each = results.of(contender, scenario).stream()
                        .map(m -> ops(m.opsPerSecond())).collect(Collectors.joining(" / "));
                md.append(median.isPresent() ? " **" + ops(median.getAsDouble()) + "** (" + each + ")" : " n/a").append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private void targets(StringBuilder md) {
        md.append("## Ratios and targets\n\n");
        md.append("Targets from the benchmark issue: uncontended, Locksmith >= 0.9 x the raw limit and >= Redisson;\n")
                .append("contended, Locksmith >= 1.5 x Redisson. Ratios are of the medians.\n\n");
        md.append("| Scenario | Ratio | Measured | Target | Verdict |\n|---|---|---:|---:|---|\n");
        for (Target target : Target.ALL) {
            OptionalDouble ratio = target.ratio(results);
            md.append("| ").append(target.scenario().label()).append(" | Locksmith / ").append(target.baseline().label())
                    .append(" | ").append(ratio.isPresent() ? ratio(ratio.getAsDouble()) : "n/a")
                    .append(" | >= ").append(ratio(target.atLeast())).append(" | ").append(target.verdict(results)).append(" |\n");
        }
        OptionalDouble contendedVsRaw = Target.ratio(results, Scenario.CONTENDED, Contender.RAW);
        if (contendedVsRaw.isPresent()) {
            md.append("| ").append(Scenario.CONTENDED.label()).append(" | Locksmith / ").append(Contender.RAW.label())
                    .append(" (polling) | ").append(ratio(contendedVsRaw.getAsDouble())).append(" | none | for reference |\n");
        }
        md.append('\n');
    }

    private void exclusion(StringBuilder md) {
        md.append("## Mutual exclusion\n\n");
        md.append("Every cycle entered an occupancy counter that all worker JVMs of a measurement share through a\n")
                .append("memory-mapped file; finding another holder inside counts as a violation. Violations: **")
                .append(results.violations()).append("** in ").append(String.format(Locale.ROOT, "%,d", results.cycles()))
                .append(" counted cycles").append(results.violations() == 0 ? "." : " -- THESE NUMBERS ARE OF A BROKEN LOCK.")
                .append("\n\nShare of the contended cycles taken by each worker JVM, per repetition:\n\n");
        for (Contender contender : options.contenders()) {
            String shares = results.of(contender, Scenario.CONTENDED).stream()
                    .map(MarkdownReport::shares).collect(Collectors.joining("; "));
            md.append("- ").append(contender.label()).append(": ").append(shares.isEmpty() ? "n/a" : shares).append('\n');
        }
        md.append('\n');
    }

    private void commands(StringBuilder md) {
        md.append("## Where the time goes, per cycle\n\n");
        md.append("Over the counted window of the first repetition, divided by the cycles counted. *Calls* are from\n")
                .append("`INFO commandstats`, which counts the commands a script runs as well as the script call, so\n")
                .append("client round trips are the `evalsha`/`eval` calls plus any command not run by a script.\n")
                .append("*Script us* is the time Redis spent inside `evalsha`/`eval` (their commands included).\n")
                .append("*Server CPU* is the whole redis-server process (`INFO cpu`, network I/O included);\n")
                .append("*client CPU* is all threads of the worker JVM(s). With ").append(machine.processors())
                .append(" CPUs shared by both, a CPU-bound scenario cannot exceed\n")
                .append(machine.processors()).append(" s / (server + client CPU per cycle).\n\n");
        md.append("| Scenario | Contender | Calls | Script us | Server CPU us | Client CPU us | Calls by command |\n")
                .append("|---|---|---:|---:|---:|---:|---|\n");
        for (Scenario scenario : Scenario.values()) {
            for (Contender contender : options.contenders()) {
                List<Measurement> repetitions = results.of(contender, scenario);
                if (repetitions.isEmpty()) {
                    continue;
                }
                Measurement first = repetitions.get(0);
                md.append("| ").append(scenario.label()).append(" | ").append(contender.label()).append(" | ")
                        .append(decimal(first.commandsPerCycle())).append(" | ").append(decimal(first.scriptMicrosPerCycle()))
                        .append(" | ").append(decimal(first.serverCpuMicrosPerCycle()))
                        .append(" | ").append(decimal(first.clientCpuMicrosPerCycle()))
                        .append(" | ").append(breakdown(first)).append(" |\n");
            }
        }
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

    private static String seconds(java.time.Duration duration) {
        return duration.toSeconds() + " s";
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
