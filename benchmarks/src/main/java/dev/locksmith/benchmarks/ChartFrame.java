package dev.locksmith.benchmarks;

import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import javax.imageio.ImageIO;

/**
 * What every chart of the report shares, so that they look alike: the white PNG canvas, the title
 * with its line of context and the legend, the throughput axis, the contenders' colours and short
 * names, and how numbers are written on a chart. {@link BarChart} and {@link ScaleChart} draw the
 * panels.
 */
final class ChartFrame {
    /** One colour per contender, the same in every chart. */
    static final Map<Contender, Color> COLORS = Map.of(
            Contender.LOCKSMITH, new Color(0x2E7D32),
            Contender.LOCKSMITH_TELEMETRY, new Color(0x81C784),
            Contender.LOCKSMITH_LOCKED, new Color(0x00796B),
            Contender.LOCKSMITH_TRANSACTION, new Color(0x7986CB),
            Contender.LOCKSMITH_FENCED, new Color(0x283593),
            Contender.REDISSON, new Color(0xC62828),
            Contender.RAW, new Color(0x616161));

    private ChartFrame() {
    }

    /**
     * Draws a chart of {@code width} x {@code height} on a white canvas and writes it as a PNG.
     *
     * @throws IOException if the file cannot be written
     */
    static void write(Path png, int width, int height, Consumer<Graphics2D> draw) throws IOException {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            draw.accept(g);
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(image, "png", png.toFile())) {
            throw new IOException("No PNG writer in this JVM for " + png);
        }
    }

    /**
     * Draws the title, a line of context under it, and a legend of {@code contenders}, from {@code left}.
     */
    static void header(Graphics2D g, int left, String title, String context, List<Contender> contenders) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 22));
        g.drawString(title, left, 36);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        g.setColor(Color.DARK_GRAY);
        g.drawString(context, left, 60);
        int x = left;
        for (Contender contender : contenders) {
            g.setColor(COLORS.get(contender));
            g.fillRect(x, 78, 18, 18);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 16));
            g.drawString(contender.label(), x + 26, 93);
            x += 40 + g.getFontMetrics().stringWidth(contender.label());
        }
    }

    /**
     * Writes the throughput axis's title, turned, at the left edge, centred on the plots' height.
     */
    static void yAxisTitle(Graphics2D g, int plotTop, int plotBottom) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
        AffineTransform saved = g.getTransform();
        String title = "lock+unlock cycles per second";
        int plotMiddle = (plotTop + plotBottom) / 2;
        g.rotate(-Math.PI / 2);
        g.drawString(title, -plotMiddle - g.getFontMetrics().stringWidth(title) / 2, 22);
        g.setTransform(saved);
    }

    /**
     * Draws one panel's throughput axis from 0 to a round value above {@code highest}, with grid
     * lines and their values at the left, and the panel's bottom and left edges.
     *
     * @return the value at {@code plotTop}, to scale what the panel draws
     */
    static double throughputAxis(Graphics2D g, int x, int width, int plotTop, int plotBottom, double highest) {
        int plotHeight = plotBottom - plotTop;
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
        g.drawLine(x, plotTop, x, plotBottom);
        return top;
    }

    /**
     * @return the contender's name where a chart has little room
     */
    static String shortName(Contender contender) {
        return switch (contender) {
            case LOCKSMITH -> "Locksmith";
            case LOCKSMITH_TELEMETRY -> "OTel on";
            case LOCKSMITH_LOCKED -> "@Locked";
            case LOCKSMITH_TRANSACTION -> "unfenced";
            case LOCKSMITH_FENCED -> "fenced";
            case REDISSON -> "Redisson";
            case RAW -> "raw";
        };
    }

    static void centered(Graphics2D g, String text, int x, int width, int baseline) {
        g.drawString(text, x + (width - g.getFontMetrics().stringWidth(text)) / 2, baseline);
    }

    /**
     * @return 12,345 as "12k", 1,234 as "1.2k", 123 as "123"
     */
    static String compact(double value) {
        if (value >= 1000) {
            double thousands = value / 1000;
            return String.format(Locale.ROOT, thousands >= 100 || thousands == Math.rint(thousands) ? "%.0fk" : "%.1fk", thousands);
        }
        return String.format(Locale.ROOT, "%.0f", value);
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
}
