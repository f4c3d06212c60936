package dev.locksmith.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scripts' answers to an acquisition and to a last release read as the small types the
 * lock's paths branch on, and an answer of neither form is refused by name.
 */
class RepliesTest {

    @Test
    void anAcquisitionIsGrantedWithItsTokenOrBusyWithHowLongAndWhetherInTheRing() {
        assertThat(AcquireReply.read(List.of(1L, 42L))).isEqualTo(new AcquireReply.Granted(42));
        assertThat(AcquireReply.read(List.of(1L, 42L)).inRing()).isFalse();
        assertThat(AcquireReply.read(List.of(0L, 1_500L))).isEqualTo(new AcquireReply.Busy(1_500, false));
        assertThat(AcquireReply.read(List.of(0L, 1_500L, 1L))).isEqualTo(new AcquireReply.Busy(1_500, true));
        assertThat(AcquireReply.read(List.of(0L, -1L, 0L))).isEqualTo(new AcquireReply.Busy(-1, false));
    }

    @Test
    void anAnswerOfNeitherFormIsRefused() {
        assertThatThrownBy(() -> AcquireReply.read(List.of(2L, 1L))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[2, 1]");
        assertThatThrownBy(() -> AcquireReply.read(List.of(1L))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReleaseReply.read(2, false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2");
    }

    @Test
    void aLastReleaseFreesOffersHandsOverOrFindsItsHoldLost() {
        assertThat(ReleaseReply.read(0, false)).isEqualTo(ReleaseReply.FREED);
        assertThat(ReleaseReply.read(1, false)).isEqualTo(ReleaseReply.OFFERED);
        assertThat(ReleaseReply.read(-1, false)).isEqualTo(ReleaseReply.LOST);
        assertThat(ReleaseReply.read(-1, true)).isEqualTo(ReleaseReply.LOST);
        assertThat(ReleaseReply.read(1, true)).as("a hand-over answers the taker's token, 1 included")
                .isEqualTo(new ReleaseReply.HandedOver(1));
        assertThat(ReleaseReply.read(77, true)).isEqualTo(new ReleaseReply.HandedOver(77));
    }
}
