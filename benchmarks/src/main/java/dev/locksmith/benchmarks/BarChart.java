package dev.locksmith.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Draws one {@link Scenario.Group} of the run as a PNG with plain Java2D: one panel per scenario,
 * each with its own y axis (contended and uncontended throughput differ by orders of magnitude),
 * one bar per contender at its median, whiskers from the slowest to the fastest repetition, the
 * value on top, and the Locksmith ratios under each panel.
 */
final class BarChart {
    private static final int WIDTH = 1320;
    private static final int HEIGHT = 700;
    private static final int TOP = 120;
    private static final int BOTTOM = 190;
    private static final int LEFT = 90;
    private static final int RIGHT = 30;
    private static final int PANEL_GAP = 60;

    private final Results results;
    private final BenchmarkOptions options;
    private final MachineInfo machine;
    private final Scenario.Group group;
    private final List<Scenario> scenarios;
    private final List<Contender> contenders;

    BarChart(Results results, BenchmarkOptions options, MachineInfo machine, Scenario.Group group) {
        this.results = results;
        this.options = options;
        this.machine = machine;
        this.group = group;
        this.scenarios = Scenario.of(group).stream().filter(options.scenarios()::contains).toList();
        this.contenders = options.contenders().stream()
                .filter(contender -> scenarios.stream().anyMatch(contender::measures))
                .toList();
    }

    /**
     * @throws IOException if the file cannot be written
     */
    void write(Path png) throws IOException {
        ChartFrame.write(png, WIDTH, HEIGHT, g -> {
            ChartFrame.header(g, LEFT, group.title(), "Bars: median of " + options.repetitions() + " repetition(s) of "
                    + options.measure(group).toSeconds() + " s; whiskers: slowest to fastest repetition. "
                    + machine.processors() + " CPUs, redis-server " + machine.redis() + ", " + machine.date() + ".",
                    contenders);
            int panelWidth = (WIDTH - LEFT - RIGHT - PANEL_GAP * (scenarios.size() - 1)) / scenarios.size();
            for (int i = 0; i < scenarios.size(); i++) {
                panel(g, scenarios.get(i), LEFT + i * (panelWidth + PANEL_GAP), panelWidth);
            }
            ChartFrame.yAxisTitle(g, TOP, HEIGHT - BOTTOM);
        });
    }

    private void panel(Graphics2D g, Scenario scenario, int x, int width) {
        int plotBottom = HEIGHT - BOTTOM;
        int plotHeight = plotBottom - TOP;
        List<Contender> contenders = this.contenders.stream().filter(c -> c.measures(scenario)).toList();
        double highest = contenders.stream()
                .flatMap(c -> results.of(c, scenario).stream())
                .mapToDouble(Measurement::opsPerSecond).max().orElse(1);
        double top = ChartFrame.throughputAxis(g, x, width, TOP, plotBottom, highest);

        int slot = width / Math.max(1, contenders.size());
        int barWidth = (int) (slot * 0.62);
        for (int i = 0; i < contenders.size(); i++) {
            Contender contender = contenders.get(i);
            OptionalDouble median = results.medianOps(contender, scenario);
            if (median.isEmpty()) {
                continue;
            }
            int barX = x + i * slot + (slot - barWidth) / 2;
            int barTop = plotBottom - (int) Math.round(median.getAsDouble() / top * plotHeight);
            g.setColor(ChartFrame.COLORS.get(contender));
            g.fillRect(barX, barTop, barWidth, plotBottom - barTop);
            int whiskerTop = whisker(g, scenario, contender, barX + barWidth / 2, plotBottom, plotHeight, top);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
            String value = ChartFrame.compact(median.getAsDouble());
            g.drawString(value, barX + (barWidth - g.getFontMetrics().stringWidth(value)) / 2, Math.min(barTop, whiskerTop) - 6);
        }

        // Text may use the gap between panels, but not its neighbour's half of it.
        int textWidth = width + PANEL_GAP - 10;
        int textX = x - (PANEL_GAP - 10) / 2;
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        int line = plotBottom + 26;
        for (String text : wrap(g, scenario.label(), textWidth)) {
            ChartFrame.centered(g, text, textX, textWidth, line);
            line += 19;
        }
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        line += 6;
        for (Target target : Target.of(scenario)) {
            OptionalDouble ratio = target.ratio(results);
            if (ratio.isPresent()) {
                String text = String.format(Locale.ROOT, "%s / %s = %.2f%s", ChartFrame.shortName(target.measured()),
                        ChartFrame.shortName(target.baseline()), ratio.getAsDouble(), suffix(target));
                for (String part : wrap(g, text, textWidth)) {
                    ChartFrame.centered(g, part, textX, textWidth, line);
                    line += 18;
                }
                line += 2;
            }
        }
    }

    /**
     * @return {@code text} in lines no wider than {@code width} where it can be, broken after a
     *         comma if that is enough, else at spaces
     */
    private static List<String> wrap(Graphics2D g, String text, int width) {
        FontMetrics metrics = g.getFontMetrics();
        List<String> lines = new ArrayList<>();
        String line = "";
        for (String part : text.split("(?<=,) ")) {
            String longer = line.isEmpty() ? part : line + " " + part;
            if (metrics.stringWidth(longer) <= width) {
                line = longer;
                continue;
            }
            if (!line.isEmpty()) {
                lines.add(line);
            }
            line = "";
            for (String word : part.split(" ")) {
                String withWord = line.isEmpty() ? word : line + " " + word;
                if (!line.isEmpty() && metrics.stringWidth(withWord) > width) {
                    lines.add(line);
                    line = word;
                } else {
                    line = withWord;
                }
            }
        }
        lines.add(line);
        return lines;
    }

    private int whisker(Graphics2D g, Scenario scenario, Contender contender, int centre, int plotBottom,
                        int plotHeight, double top) {
        double[] ops = results.of(contender, scenario).stream().mapToDouble(Measurement::opsPerSecond).toArray();
        double low = java.util.Arrays.stream(ops).min().orElse(0);
        double high = java.util.Arrays.stream(ops).max().orElse(0);
        int yLow = plotBottom - (int) Math.round(low / top * plotHeight);
        int yHigh = plotBottom - (int) Math.round(high / top * plotHeight);
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1.6f));
        g.drawLine(centre, yLow, centre, yHigh);
        g.drawLine(centre - 7, yLow, centre + 7, yLow);
        g.drawLine(centre - 7, yHigh, centre + 7, yHigh);
        g.setStroke(new BasicStroke(1f));
        return yHigh;
    }

    private static String suffix(Target target) {
        if (target.atLeast().isPresent()) {
            return String.format(Locale.ROOT, " (target %.1f)", target.atLeast().getAsDouble());
        }
        return target.note().isEmpty() ? "" : " (" + target.note() + ", no target)";
    }
}
