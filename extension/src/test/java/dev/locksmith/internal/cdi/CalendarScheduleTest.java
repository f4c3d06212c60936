package dev.locksmith.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The slot of a calendar timer's firing: the schedule's last instant before the next timeout.
 */
class CalendarScheduleTest {

    private static CalendarSchedule schedule(String second, String minute, String hour) {
        return CalendarSchedule.of(second, minute, hour, "*", "*", "*", "*", "UTC");
    }

    @Test
    void everyTwoSecondsTheSlotIsTwoSecondsBeforeTheNextTimeout() {
        CalendarSchedule everyTwo = schedule("*/2", "*", "*");

        assertThat(everyTwo.previousBefore(Instant.parse("2026-03-01T10:00:02Z")))
                .isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
        assertThat(everyTwo.previousBefore(Instant.parse("2026-03-01T10:00:00Z")))
                .isEqualTo(Instant.parse("2026-03-01T09:59:58Z"));
    }

    @Test
    void listsRangesAndIncrementsFromAStartAreRead() {
        assertThat(schedule("0", "0,30", "9-17").previousBefore(Instant.parse("2026-03-01T09:00:00Z")))
                .isEqualTo(Instant.parse("2026-02-28T17:30:00Z"));
        assertThat(schedule("5/15", "*", "*").previousBefore(Instant.parse("2026-03-01T10:00:20Z")))
                .isEqualTo(Instant.parse("2026-03-01T10:00:05Z"));
        assertThat(schedule("0", "0", "22-2").previousBefore(Instant.parse("2026-03-01T12:00:00Z")))
                .isEqualTo(Instant.parse("2026-03-01T02:00:00Z"));
    }

    @Test
    void daysAreReadInTheSchedulesTimeZoneAndEitherDayFieldMatches() {
        CalendarSchedule mondays = CalendarSchedule.of("0", "0", "8", "*", "*", "Mon", "*", "Europe/Zurich");
        CalendarSchedule firstOrFriday = CalendarSchedule.of("0", "0", "0", "1", "*", "Fri", "*", "UTC");

        assertThat(mondays.previousBefore(Instant.parse("2026-03-04T12:00:00Z")))
                .isEqualTo(Instant.parse("2026-03-02T07:00:00Z"));
        assertThat(firstOrFriday.previousBefore(Instant.parse("2026-03-05T12:00:00Z")))
                .isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
        assertThat(firstOrFriday.previousBefore(Instant.parse("2026-03-07T12:00:00Z")))
                .isEqualTo(Instant.parse("2026-03-06T00:00:00Z"));
    }

    @Test
    void aRelativeDayIsRefusedNamingTheAttributeAndTheFix() {
        assertThatThrownBy(() -> CalendarSchedule.of("0", "0", "0", "Last", "*", "*", "*", "UTC"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dayOfMonth = 'Last': 'Last' is not a number")
                .hasMessageContaining("name the slot with {timer.nextTimeout} instead");
    }
}
