package dev.locksmith.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * An offer's one reader and one writer on the Java side: what {@code offer_message} in
 * {@code common.lua} writes ({@code RingScriptTest} checks the scripts against {@link OfferMessage#text()}).
 */
class OfferMessageTest {

    @Test
    void anOfferReadsBackAsItWasWritten() {
        OfferMessage offer = new OfferMessage(1_796_286_852_005_220L, 3);

        assertThat(offer.text()).isEqualTo("o2|1796286852005220|3");
        assertThat(OfferMessage.isOffer(offer.text())).isTrue();
        assertThat(OfferMessage.parse(offer.text())).contains(offer);
    }

    @Test
    void anOfferOfAnotherFormatIsAnOfferThisVersionDoesNotRead() {
        for (String other : new String[] {"o41.0", "o3|41|0", "o2|41", "o2|x|0", "o2|41|1|extra", "o"}) {
            assertThat(OfferMessage.isOffer(other)).as(other).isTrue();
            assertThat(OfferMessage.parse(other)).as(other).isEmpty();
        }
    }

    @Test
    void aFairTurnOrAWakeUpForEveryoneIsNoOffer() {
        assertThat(OfferMessage.isOffer("oKx3_9a:17")).as("an owner id whose manager id begins with o").isFalse();
        assertThat(OfferMessage.isOffer("manager-a:1")).isFalse();
        assertThat(OfferMessage.isOffer("*")).isFalse();
    }
}
