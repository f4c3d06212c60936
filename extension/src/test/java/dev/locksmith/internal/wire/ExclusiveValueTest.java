package dev.locksmith.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.internal.wire.ExclusiveValue.Mark;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The exclusive lock's value on the Java side reads what {@code exclusive_value} writes, each mark
 * and field, and tells a value of another form by an empty answer.
 */
class ExclusiveValueTest {
    private static final Instant SINCE = Instant.ofEpochMilli(1_767_225_600_123L);

    @Test
    void aHoldReadsBackAsItWasWrittenWhateverItsThreadNameHolds() {
        ExclusiveValue hold = new ExclusiveValue(Mark.REENTRANT, "m1:17", 1_796_286_852_005_220L, 2, SINCE,
                ",m2:,m3:,", "pool-1 | worker\n2");

        assertThat(hold.text()).isEqualTo("-m1:17|1796286852005220|2|1767225600123|,m2:,m3:,|pool-1 | worker\n2");
        assertThat(ExclusiveValue.parse(hold.text())).contains(hold);
    }

    @Test
    void everyMarkReadsBackAndSaysWhetherTheLockIsTakenAndWhoseItIs() {
        for (Mark mark : Mark.values()) {
            ExclusiveValue value = new ExclusiveValue(mark, "m1:17", 41, 1, SINCE, "", "main");

            assertThat(value.text()).as("%s", mark).startsWith(String.valueOf(mark.symbol()));
            assertThat(ExclusiveValue.parse(value.text())).as("%s", mark).contains(value);
            assertThat(value.taken()).as("%s taken", mark).isEqualTo(mark != Mark.OFFERED);
            assertThat(value.heldBy("m1:17")).as("%s held by its owner", mark)
                    .isEqualTo(mark != Mark.OFFERED && mark != Mark.KEPT);
            assertThat(value.heldBy("m1:1")).as("%s held by another owner", mark).isFalse();
        }
        assertThat(Mark.values()).extracting(Mark::symbol).containsExactly('-', 'w', 'W', 'f', 'F', 'k', 'r');
    }

    @Test
    void anOfferReadsWithItsManagerNumberAndTimeAndAnOlderVersionsOfferWithoutATime() {
        ExclusiveValue offer = ExclusiveValue.parse("rm2:|41|3|1767225600123|,m3:,|").orElseThrow();

        assertThat(offer).isEqualTo(new ExclusiveValue(Mark.OFFERED, "m2:", 41, 3, SINCE, ",m3:,", ""));
        assertThat(offer.heldBy("m2:")).as("an offer is nobody's hold").isFalse();
        assertThat(ExclusiveValue.parse("rm2:|41|0|||").orElseThrow().since()).isNull();
        assertThat(ExclusiveValue.parse("rm2:|41|0|||").orElseThrow().text()).isEqualTo("rm2:|41|0|||");
    }

    @Test
    void aValueOfAnotherFormIsNoneThisVersionReads() {
        for (String other : new String[] {"", "-", "-m1:17", "-m1:17|41|1|5|", "zm1:17|41|1|5||main",
                "-m1:17|x|1|5||main", "-m1:17|41|1|5s||main", "-m1:17|99999999999999999999|1|5||main"}) {
            assertThat(ExclusiveValue.parse(other)).as("'%s'", other).isEmpty();
        }
    }
}
