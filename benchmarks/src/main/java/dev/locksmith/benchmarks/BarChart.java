package dev.locksmith.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import javax.imageio.ImageIO;

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
    private static final Map<Contender, Color> COLORS = Map.of(
            Contender.LOCKSMITH, new Color(0x2E7D32),
            Contender.LOCKSMITH_TELEMETRY, new Color(0x81C784),
            Contender.LOCKSMITH_LOCKED, new Color(0x00796B),
            Contender.REDISSON, new Color(0xC62828),
            Contender.RAW, new Color(0x616161));

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
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            header(g);
            int panelWidth = (WIDTH - LEFT - RIGHT - PANEL_GAP * (scenarios.size() - 1)) / scenarios.size();
            for (int i = 0; i < scenarios.size(); i++) {
                panel(g, scenarios.get(i), LEFT + i * (panelWidth + PANEL_GAP), panelWidth);
            }
            yAxisTitle(g);
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(image, "png", png.toFile())) {
            throw new IOException("No PNG writer in this JVM for " + png);
        }
    }

    private void header(Graphics2D g) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 22));
        g.drawString(group.title(), LEFT, 36);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        g.setColor(Color.DARK_GRAY);
        g.drawString("Bars: median of " + options.repetitions() + " repetition(s) of " + options.measure(group).toSeconds()
                + " s; whiskers: slowest to fastest repetition. " + machine.processors() + " CPUs, redis-server "
                + machine.redis() + ", " + machine.date() + ".", LEFT, 60);
        int x = LEFT;
        for (Contender contender : contenders) {
            g.setColor(COLORS.get(contender));
            g.fillRect(x, 78, 18, 18);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 16));
            g.drawString(contender.label(), x + 26, 93);
            x += 40 + g.getFontMetrics().stringWidth(contender.label());
        }
    }

    private void yAxisTitle(Graphics2D g) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
        AffineTransform saved = g.getTransform();
        String title = "lock+unlock cycles per second";
        int plotMiddle = TOP + (HEIGHT - TOP - BOTTOM) / 2;
        g.rotate(-Math.PI / 2);
        g.drawString(title, -plotMiddle - g.getFontMetrics().stringWidth(title) / 2, 22);
        g.setTransform(saved);
    }

    private void panel(Graphics2D g, Scenario scenario, int x, int width) {
        int plotBottom = HEIGHT - BOTTOM;
        int plotHeight = plotBottom - TOP;
        List<Contender> contenders = this.contenders.stream().filter(c -> c.measures(scenario)).toList();
        double highest = contenders.stream()
                .flatMap(c -> results.of(c, scenario).stream())
                .mapToDouble(Measurement::opsPerSecond).max().orElse(1);
        double step = niceStep(highest / 5);
        double top = Math.ceil(highest * 1.12 / step) * step;

        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        FontMetrics metrics = g.getFontMetrics();
        for (double tick = 0; tick <= top + step / 2; tick += step) {
            int y = plotBottom - (int) Math.round(tick / top * plotHeight);
            g.setColor(new Color(0xE0E0E0));
            g.drawLine(x, y, x + width, y);
            g.setColor(Color.DARK_GRAY);
            String label = compact(tick);
            g.drawString(label, x - 8 - metrics.stringWidth(label), y + metrics.getAscent() / 2 - 1);
        }
        g.setColor(Color.BLACK);
        g.drawLine(x, plotBottom, x + width, plotBottom);
        g.drawLine(x, TOP, x, plotBottom);

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
            g.setColor(COLORS.get(contender));
            g.fillRect(barX, barTop, barWidth, plotBottom - barTop);
            int whiskerTop = whisker(g, scenario, contender, barX + barWidth / 2, plotBottom, plotHeight, top);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
            String value = compact(median.getAsDouble());
            g.drawString(value, barX + (barWidth - g.getFontMetrics().stringWidth(value)) / 2, Math.min(barTop, whiskerTop) - 6);
        }

        // Text may use the gap between panels, but not its neighbour's half of it.
        int textWidth = width + PANEL_GAP - 10;
        int textX = x - (PANEL_GAP - 10) / 2;
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        int line = plotBottom + 26;
        for (String text : wrap(g, scenario.label(), textWidth)) {
            centered(g, text, textX, textWidth, line);
            line += 19;
        }
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        line += 6;
        for (Target target : Target.of(scenario)) {
            OptionalDouble ratio = target.ratio(results);
            if (ratio.isPresent()) {
                String text = String.format(Locale.ROOT, "%s / %s = %.2f%s", shortName(target.measured()),
                        shortName(target.baseline()), ratio.getAsDouble(), suffix(target));
                for (String part : wrap(g, text, textWidth)) {
                    centered(g, part, textX, textWidth, line);
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

    private static String shortName(Contender contender) {
        return switch (contender) {
            case LOCKSMITH -> "Locksmith";
            case LOCKSMITH_TELEMETRY -> "OTel on";
            case LOCKSMITH_LOCKED -> "@Locked";
            case REDISSON -> "Redisson";
            case RAW -> "raw";
        };
    }

    private static void centered(Graphics2D g, String text, int x, int width, int baseline) {
        g.drawString(text, x + (width - g.getFontMetrics().stringWidth(text)) / 2, baseline);
    }

    private static double niceStep(double rough) {
        if (rough <= 0) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(rough)));
        double fraction = rough / magnitude;
        double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
        return nice * magnitude;
    }

    private static String compact(double value) {
        if (value >= 1000) {
            double thousands = value / 1000;
            return String.format(Locale.ROOT, thousands >= 100 || thousands == Math.rint(thousands) ? "%.0fk" : "%.1fk", thousands);
        }
        return String.format(Locale.ROOT, "%.0f", value);
    }
}
