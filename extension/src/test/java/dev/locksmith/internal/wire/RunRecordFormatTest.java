package dev.locksmith.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.LastRun;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A job's run reads back from Redis as it was written, whatever its thread and lock names hold,
 * and a record of an older version still reads.
 */
class RunRecordFormatTest {

    @Test
    void aRunReadsBackAsItWasWrittenEvenWithBarsAndPercentsInItsNames() {
        LastRun run = new LastRun(Instant.ofEpochMilli(1_796_286_852_005L), Duration.ofMillis(4), LastRun.FAILED,
                "java.lang.IllegalStateException", "pid 10719 on vm|a, application shop", "EJB | 100% busy", 42L,
                "interest:2026-12-03T08:34:18Z|%7C", Instant.ofEpochMilli(1_796_286_852_000L));

        String record = RunRecordFormat.write(run);

        assertThat(record).startsWith("1796286852005|4|failed|42|java.lang.IllegalStateException|EJB %7C 100%25 busy|");
        assertThat(RunRecordFormat.read(record)).isEqualTo(run);
    }

    @Test
    void aCompletedRunWithoutASlotReadsBack() {
        LastRun run = new LastRun(Instant.ofEpochMilli(5_000), Duration.ZERO, LastRun.COMPLETED, null, "pid 1 on host",
                "main", 7L, "nightly", null);

        assertThat(RunRecordFormat.read(RunRecordFormat.write(run))).isEqualTo(run);
    }

    @Test
    void anOlderVersionsRecordReadsWithoutLockAndSlot() {
        LastRun run = RunRecordFormat.read("5000|12|completed|7||worker-1|pid 1 on host|with a bar");

        assertThat(run).isEqualTo(new LastRun(Instant.ofEpochMilli(5_000), Duration.ofMillis(12), LastRun.COMPLETED, null,
                "pid 1 on host|with a bar", "worker-1", 7L));
    }

    @Test
    void somethingElseIsRefusedWithTheRecord() {
        assertThatThrownBy(() -> RunRecordFormat.read("yesterday")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'yesterday'");
    }
}
