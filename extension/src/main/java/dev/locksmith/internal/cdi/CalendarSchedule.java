package dev.locksmith.internal.cdi;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.Locale;
import java.util.Map;

/**
 * An EJB calendar schedule ({@code @Schedule}, {@code ScheduleExpression}) read well enough to
 * answer one question: which scheduled instant came last before a given one. A timer's callback
 * knows only its next timeout; the slot it runs for is the schedule's previous instant before
 * that, the same on every server whatever its callback's delay.
 *
 * <p>Reads numbers, {@code *}, lists ({@code 0,30}), ranges ({@code 9-17}, also wrapping as
 * {@code 22-2}), increments ({@code *&#47;2}, {@code 5/15}) and the English month and day names.
 * The relative day values ({@code Last}, {@code -3}, {@code 1st Fri}) are refused with a message
 * naming them.
 */
final class CalendarSchedule {
    private static final int LONGEST_SEARCH = 2_000_000;
    private static final Map<String, Integer> MONTHS = Map.ofEntries(Map.entry("jan", 1), Map.entry("feb", 2),
            Map.entry("mar", 3), Map.entry("apr", 4), Map.entry("may", 5), Map.entry("jun", 6), Map.entry("jul", 7),
            Map.entry("aug", 8), Map.entry("sep", 9), Map.entry("oct", 10), Map.entry("nov", 11), Map.entry("dec", 12));
    private static final Map<String, Integer> DAYS = Map.of("sun", 0, "mon", 1, "tue", 2, "wed", 3, "thu", 4,
            "fri", 5, "sat", 6);

    private final BitSet seconds;
    private final BitSet minutes;
    private final BitSet hours;
    private final BitSet daysOfMonth;
    private final boolean anyDayOfMonth;
    private final BitSet months;
    private final BitSet daysOfWeek;
    private final boolean anyDayOfWeek;
    private final BitSet years;
    private final boolean anyYear;
    private final ZoneId zone;

    private CalendarSchedule(String second, String minute, String hour, String dayOfMonth, String month,
                             String dayOfWeek, String year, ZoneId zone) {
        this.seconds = field("second", second, 0, 59, Map.of());
        this.minutes = field("minute", minute, 0, 59, Map.of());
        this.hours = field("hour", hour, 0, 23, Map.of());
        this.daysOfMonth = field("dayOfMonth", dayOfMonth, 1, 31, Map.of());
        this.anyDayOfMonth = dayOfMonth.trim().equals("*");
        this.months = field("month", month, 1, 12, MONTHS);
        BitSet week = field("dayOfWeek", dayOfWeek, 0, 7, DAYS);
        if (week.get(7)) {
            week.set(0); // 7 and 0 are both Sunday
        }
        this.daysOfWeek = week;
        this.anyDayOfWeek = dayOfWeek.trim().equals("*");
        this.anyYear = year.trim().equals("*");
        this.years = anyYear ? new BitSet() : field("year", year, 1970, 9999, Map.of());
        this.zone = zone;
    }

    /**
     * @param second     the schedule's {@code second} attribute
     * @param minute     its {@code minute}
     * @param hour       its {@code hour}
     * @param dayOfMonth its {@code dayOfMonth}
     * @param month      its {@code month}
     * @param dayOfWeek  its {@code dayOfWeek}
     * @param year       its {@code year}
     * @param timezone   its {@code timezone}, empty or null for the server's
     * @return the schedule
     * @throws IllegalArgumentException naming the attribute whose value cannot be read, and why
     */
    static CalendarSchedule of(String second, String minute, String hour, String dayOfMonth, String month,
                               String dayOfWeek, String year, String timezone) {
        ZoneId zone;
        try {
            zone = timezone == null || timezone.isBlank() ? ZoneId.systemDefault() : ZoneId.of(timezone.trim());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("timezone = '" + timezone + "' is not a time zone id such as"
                    + " Europe/Zurich", e);
        }
        return new CalendarSchedule(second, minute, hour, dayOfMonth, month, dayOfWeek, year, zone);
    }

    /**
     * @param next an instant, such as the timer's next timeout
     * @return the latest whole second of this schedule strictly before {@code next}
     * @throws IllegalArgumentException if the schedule has no such second within the search's bound
     */
    Instant previousBefore(Instant next) {
        ZonedDateTime at = next.minusNanos(1).atZone(zone).truncatedTo(ChronoUnit.SECONDS);
        for (int step = 0; step < LONGEST_SEARCH; step++) {
            if (!anyYear && !years.get(at.getYear())) {
                at = at.withDayOfYear(1).truncatedTo(ChronoUnit.DAYS).minusSeconds(1);
            } else if (!months.get(at.getMonthValue())) {
                at = at.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS).minusSeconds(1);
            } else if (!dayMatches(at)) {
                at = at.truncatedTo(ChronoUnit.DAYS).minusSeconds(1);
            } else if (!hours.get(at.getHour())) {
                at = at.truncatedTo(ChronoUnit.HOURS).minusSeconds(1);
            } else if (!minutes.get(at.getMinute())) {
                at = at.truncatedTo(ChronoUnit.MINUTES).minusSeconds(1);
            } else if (!seconds.get(at.getSecond())) {
                at = at.minusSeconds(1);
            } else {
                return at.toInstant();
            }
            if (at.getYear() < 1970) {
                break;
            }
        }
        throw new IllegalArgumentException("the schedule has no instant before " + next + " within the search's bound");
    }

    /**
     * As the EJB specification says: with both restricted, a day matches either.
     */
    private boolean dayMatches(ZonedDateTime at) {
        boolean byMonth = daysOfMonth.get(at.getDayOfMonth());
        boolean byWeek = daysOfWeek.get(at.getDayOfWeek().getValue() % 7);
        if (!anyDayOfMonth && !anyDayOfWeek) {
            return byMonth || byWeek;
        }
        return byMonth && byWeek;
    }

    private static BitSet field(String attribute, String text, int min, int max, Map<String, Integer> names) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(attribute + " is empty; write * or a value such as " + min);
        }
        BitSet values = new BitSet(max + 1);
        for (String item : text.split(",")) {
            String part = item.trim().toLowerCase(Locale.ROOT);
            try {
                add(values, part, min, max, names);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(attribute + " = '" + text + "': '" + item.trim() + "' "
                        + e.getMessage() + ". {slot} reads numbers, *, lists, ranges, increments and English names;"
                        + " name the slot with {timer.nextTimeout} instead", e);
            }
        }
        return values;
    }

    private static void add(BitSet values, String part, int min, int max, Map<String, Integer> names) {
        if (part.equals("*")) {
            values.set(min, max + 1);
            return;
        }
        int slash = part.indexOf('/');
        if (slash >= 0) {
            String start = part.substring(0, slash).trim();
            int from = start.equals("*") ? min : value(start, min, max, names);
            int increment = value(part.substring(slash + 1).trim(), 1, max + 1, Map.of());
            for (int value = from; value <= max; value += increment) {
                values.set(value);
            }
            return;
        }
        int dash = part.indexOf('-', 1);
        if (dash > 0) {
            int from = value(part.substring(0, dash).trim(), min, max, names);
            int to = value(part.substring(dash + 1).trim(), min, max, names);
            if (from <= to) {
                values.set(from, to + 1);
            } else {
                values.set(from, max + 1);
                values.set(min, to + 1);
            }
            return;
        }
        values.set(value(part, min, max, names));
    }

    private static int value(String text, int min, int max, Map<String, Integer> names) {
        Integer named = names.get(text.length() >= 3 ? text.substring(0, 3) : text);
        if (named != null) {
            return named;
        }
        int value;
        try {
            value = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("is not a number", e);
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException("is outside " + min + ".." + max);
        }
        return value;
    }
}
