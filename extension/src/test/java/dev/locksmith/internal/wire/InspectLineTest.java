package dev.locksmith.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.LastRun;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The lines of the {@code inspect} script's answer on the Java side: each form reads back as it
 * was written, and a line of no form is refused with the line.
 */
class InspectLineTest {
    private static final Instant SINCE = Instant.ofEpochMilli(1_767_225_600_123L);

    @Test
    void aHolderReadsBackWhateverItsThreadNameHolds() {
        InspectLine.Holder holder = new InspectLine.Holder("exclusive", "m1:17", 41, 2, SINCE, Duration.ofMillis(2500),
                "pool | 1");

        assertThat(holder.text()).isEqualTo("holder|exclusive|m1:17|41|2|1767225600123|2500|pool | 1");
        assertThat(InspectLine.parse(holder.text())).isEqualTo(holder);
        assertThat(holder.managerId()).isEqualTo("m1");
    }

    @Test
    void aHoldOfAnOlderVersionHasNoSinceAndALeaseLeftIsNeverNegative() {
        InspectLine.Holder holder = (InspectLine.Holder) InspectLine.parse("holder|read|m1:17|41|0||-1|");

        assertThat(holder.since()).isNull();
        assertThat(holder.leaseLeft()).isZero();
        assertThat(holder.thread()).isEmpty();
    }

    @Test
    void anOfferReadsBackWithItsManagerWithoutTheColon() {
        InspectLine.Offer offer = new InspectLine.Offer("write", "m2", 3, SINCE, Duration.ofMillis(900));

        assertThat(offer.text()).isEqualTo("offer|write|m2:|3|1767225600123|900");
        assertThat(InspectLine.parse(offer.text())).isEqualTo(offer);
        assertThat(((InspectLine.Offer) InspectLine.parse("offer|exclusive|m2:|0||900")).since()).isNull();
    }

    @Test
    void theWaitingLineAndTheLatestRunReadBack() {
        InspectLine.Waiting waiting = new InspectLine.Waiting(4, 2);
        LastRun run = new LastRun(SINCE, Duration.ofMillis(12), LastRun.COMPLETED, null, "pid 1 on a", "main", 41,
                "interest", null);
        InspectLine.LatestRun latest = new InspectLine.LatestRun(run);

        assertThat(InspectLine.parse(waiting.text())).isEqualTo(waiting);
        assertThat(waiting.text()).isEqualTo("waiting|4|2");
        assertThat(latest.text()).isEqualTo("last-run|" + RunRecordFormat.write(run));
        assertThat(InspectLine.parse(latest.text())).isEqualTo(latest);
    }

    @Test
    void aLineOfNoFormIsRefusedWithTheLine() {
        for (String other : new String[] {"", "holders|x", "holder|exclusive|m1:17|x|1|5|9|main", "waiting|4",
                "offer|write|m2:", "last-run|yesterday"}) {
            assertThatThrownBy(() -> InspectLine.parse(other)).as("'%s'", other)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Not a line of the inspect script's answer: '" + other + "'");
        }
    }
}
