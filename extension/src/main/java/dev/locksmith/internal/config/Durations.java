package dev.locksmith.internal.config;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads durations written in configuration and in {@code @Locked}'s text members: ISO-8601
 * ({@code PT30S}) or a number, possibly with a fraction, and a short unit ({@code 500ms},
 * {@code 1.5s}, {@code 30s}, {@code 5m}, {@code 2h}).
 */
public final class Durations {
    public static final String FORMS = "ISO-8601 such as PT30S, or a number with ms, s, m or h such as 500ms, 1.5s, 5m";
    private static final Pattern SHORT = Pattern.compile("(-?\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)");

    private Durations() {
    }

    /**
     * @param text a duration as written in configuration
     * @return the duration, possibly negative
     * @throws IllegalArgumentException if the text is neither form
     */
    public static Duration parse(String text) {
        String trimmed = text.trim().toLowerCase(Locale.ROOT);
        Matcher matcher = SHORT.matcher(trimmed);
        if (matcher.matches()) {
            BigDecimal amount = new BigDecimal(matcher.group(1));
            long nanosPerUnit = switch (matcher.group(2)) {
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                default -> 3_600_000_000_000L;
            };
            try {
                return Duration.ofNanos(amount.multiply(BigDecimal.valueOf(nanosPerUnit)).setScale(0, RoundingMode.UNNECESSARY)
                        .longValueExact());
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("'" + text + "' is not a duration of whole nanoseconds within"
                        + " 292 years; write " + FORMS, e);
            }
        }
        if (trimmed.startsWith("p") || trimmed.startsWith("-p")) {
            try {
                return Duration.parse(trimmed.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                // reported below with the forms that are accepted
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a duration; write " + FORMS);
    }

    /**
     * @param duration a duration
     * @return it as configuration would write it, such as {@code 30s} or {@code 500ms}
     */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis != 0 && millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis != 0 && millis % 60_000 == 0 && millis < 3_600_000) {
            return millis / 60_000 + "m";
        }
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }
}
