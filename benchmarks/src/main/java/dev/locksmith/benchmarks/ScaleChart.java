package dev.locksmith.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Draws the {@link Scenario.Group#SCALE} rows as a PNG with plain Java2D: one panel per lock kind,
 * throughput against the number of contending processes (a doubling-scale x axis), one line per
 * contender through its medians, whiskers from the slowest to the fastest repetition, and under
 * each panel how much of its throughput at 2 processes each contender keeps at the most.
 */
final class ScaleChart {
    private static final int WIDTH = 1320;
    private static final int HEIGHT = 640;
    private static final int TOP = 120;
    private static final int BOTTOM = 130;
    private static final int LEFT = 90;
    private static final int RIGHT = 30;
    private static final int PANEL_GAP = 70;
    /** Room left and right of the outermost N inside a panel. */
    private static final int INSET = 60;

    private final Results results;
    private final BenchmarkOptions options;
    private final MachineInfo machine;
    private final List<Scenario.Kind> kinds;
    private final List<Contender> contenders;

    ScaleChart(Results results, BenchmarkOptions options, MachineInfo machine) {
        this.results = results;
        this.options = options;
        this.machine = machine;
        this.kinds = Scenario.SCALE_KINDS.stream().filter(kind -> !scenarios(options, kind).isEmpty()).toList();
        this.contenders = options.contenders().stream()
                .filter(contender -> options.scenarios().stream()
                        .anyMatch(s -> s.group() == Scenario.Group.SCALE && contender.measures(s)))
                .toList();
    }

    /**
     * @return the scale rows of {@code kind} that {@code options} chose, fewest processes first
     */
    static List<Scenario> scenarios(BenchmarkOptions options, Scenario.Kind kind) {
        return options.scenarios().stream()
                .filter(s -> s.group() == Scenario.Group.SCALE && s.kind() == kind)
                .sorted(Comparator.comparingInt(Scenario::processes))
                .toList();
    }

    /**
     * @throws IOException if the file cannot be written
     */
    void write(Path png) throws IOException {
        ChartFrame.write(png, WIDTH, HEIGHT, g -> {
            ChartFrame.header(g, LEFT, Scenario.Group.SCALE.title(), "A process: a lock manager (client) of its own,"
                    + " one thread. Median of " + options.repetitions(Scenario.Group.SCALE) + " repetition(s) of "
                    + options.measure(Scenario.Group.SCALE).toSeconds() + " s, whiskers: slowest to fastest. "
                    + machine.processors() + " CPUs, redis-server " + machine.redis() + ", " + machine.date() + ".",
                    contenders);
            int panels = Math.max(1, kinds.size());
            int panelWidth = (WIDTH - LEFT - RIGHT - PANEL_GAP * (panels - 1)) / panels;
            for (int i = 0; i < kinds.size(); i++) {
                panel(g, kinds.get(i), LEFT + i * (panelWidth + PANEL_GAP), panelWidth);
            }
            ChartFrame.yAxisTitle(g, TOP, HEIGHT - BOTTOM);
        });
    }

    private void panel(Graphics2D g, Scenario.Kind kind, int x, int width) {
        List<Scenario> scenarios = scenarios(options, kind);
        int plotBottom = HEIGHT - BOTTOM;
        int plotHeight = plotBottom - TOP;
        double highest = scenarios.stream()
                .flatMap(s -> contenders.stream().flatMap(c -> results.of(c, s).stream()))
                .mapToDouble(Measurement::opsPerSecond).max().orElse(1);
        double top = ChartFrame.throughputAxis(g, x, width, TOP, plotBottom, highest);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        FontMetrics metrics = g.getFontMetrics();
        for (Scenario scenario : scenarios) {
            int px = xOf(scenario, scenarios, x, width);
            g.setColor(Color.BLACK);
            g.drawLine(px, plotBottom, px, plotBottom + 5);
            String label = Integer.toString(scenario.processes());
            g.drawString(label, px - metrics.stringWidth(label) / 2, plotBottom + 20);
        }

        for (Contender contender : contenders) {
            Color color = ChartFrame.COLORS.get(contender);
            int previousX = -1;
            int previousY = -1;
            for (Scenario scenario : scenarios) {
                OptionalDouble median = results.medianOps(contender, scenario);
                if (median.isEmpty()) {
                    continue;
                }
                int px = xOf(scenario, scenarios, x, width);
                int py = plotBottom - (int) Math.round(median.getAsDouble() / top * plotHeight);
                double[] ops = results.of(contender, scenario).stream().mapToDouble(Measurement::opsPerSecond).toArray();
                int yLow = plotBottom - (int) Math.round(Arrays.stream(ops).min().orElse(0) / top * plotHeight);
                int yHigh = plotBottom - (int) Math.round(Arrays.stream(ops).max().orElse(0) / top * plotHeight);
                g.setColor(color);
                g.setStroke(new BasicStroke(1.4f));
                g.drawLine(px, yLow, px, yHigh);
                g.drawLine(px - 5, yLow, px + 5, yLow);
                g.drawLine(px - 5, yHigh, px + 5, yHigh);
                if (previousX >= 0) {
                    g.setStroke(new BasicStroke(2.6f));
                    g.drawLine(previousX, previousY, px, py);
                }
                g.setStroke(new BasicStroke(1f));
                g.fillOval(px - 6, py - 6, 12, 12);
                previousX = px;
                previousY = py;
            }
        }
        for (Scenario scenario : scenarios) {
            values(g, scenario, xOf(scenario, scenarios, x, width), scenario == scenarios.get(0), plotBottom, top);
        }

        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        ChartFrame.centered(g, "contending processes", x, width, plotBottom + 38);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        ChartFrame.centered(g, kindTitle(kind), x, width, plotBottom + 64);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        int line = plotBottom + 86;
        if (scenarios.size() >= 2) {
            Scenario fewest = scenarios.get(0);
            Scenario most = scenarios.get(scenarios.size() - 1);
            for (Contender contender : contenders) {
                OptionalDouble kept = keeps(results, contender, fewest, most);
                if (kept.isPresent()) {
                    ChartFrame.centered(g, String.format(Locale.ROOT, "%s: %d / %d processes = %.2f",
                            ChartFrame.shortName(contender), most.processes(), fewest.processes(), kept.getAsDouble()),
                            x, width, line);
                    line += 18;
                }
            }
        }
    }

    /**
     * Writes each contender's median at one N beside its point: the highest above it, the others
     * below theirs, each pushed up where it would run into the axis or the value under it; at the
     * first N left of the points, away from the lines.
     */
    private void values(Graphics2D g, Scenario scenario, int px, boolean first, int plotBottom, double top) {
        int plotHeight = plotBottom - TOP;
        List<Contender> highestFirst = contenders.stream()
                .filter(c -> results.medianOps(c, scenario).isPresent())
                .sorted(Comparator.comparingDouble((Contender c) -> results.medianOps(c, scenario).getAsDouble()).reversed())
                .toList();
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        int lowestBaseline = plotBottom - 3;
        for (int i = highestFirst.size() - 1; i >= 0; i--) {
            Contender contender = highestFirst.get(i);
            double median = results.medianOps(contender, scenario).getAsDouble();
            int py = plotBottom - (int) Math.round(median / top * plotHeight);
            int baseline = Math.min(i == 0 ? py - 4 : py + 15, lowestBaseline);
            String value = ChartFrame.compact(median);
            g.setColor(ChartFrame.COLORS.get(contender));
            g.drawString(value, first ? px - 9 - g.getFontMetrics().stringWidth(value) : px + 9, baseline);
            lowestBaseline = baseline - 14;
        }
    }

    /**
     * @return the median throughput of {@code contender} in {@code scenario} over that in {@code baseline}
     */
    static OptionalDouble keeps(Results results, Contender contender, Scenario baseline, Scenario scenario) {
        OptionalDouble from = results.medianOps(contender, baseline);
        OptionalDouble to = results.medianOps(contender, scenario);
        if (from.isEmpty() || to.isEmpty() || from.getAsDouble() == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(to.getAsDouble() / from.getAsDouble());
    }

    /**
     * @return "Reentrant lock", "Fair lock", "Write lock"
     */
    static String kindTitle(Scenario.Kind kind) {
        String name = kind.name().toLowerCase(Locale.ROOT);
        return Character.toUpperCase(name.charAt(0)) + name.substring(1) + " lock";
    }

    /**
     * @return the x of {@code scenario}'s point: processes on a doubling scale between the panel's insets
     */
    private static int xOf(Scenario scenario, List<Scenario> scenarios, int x, int width) {
        double low = log2(scenarios.get(0).processes());
        double high = log2(scenarios.get(scenarios.size() - 1).processes());
        double share = high == low ? 0.5 : (log2(scenario.processes()) - low) / (high - low);
        return x + INSET + (int) Math.round(share * (width - 2 * INSET));
    }

    private static double log2(int value) {
        return Math.log(value) / Math.log(2);
    }
}
