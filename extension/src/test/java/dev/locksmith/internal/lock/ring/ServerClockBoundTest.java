package dev.locksmith.internal.lock.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The latest the server's clock can read, learnt from answers: the answered time, a millisecond
 * for its truncation, and the time elapsed here since the request was sent, run {@code DRIFT}
 * faster. Pure arithmetic on given clocks.
 */
class ServerClockBoundTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void nothingIsKnownBeforeAnAnswerToldTheServersTime() {
        assertThat(new ServerClockBound().isKnown()).isFalse();
    }

    @Test
    void theLatestServerTimeCountsFromWhenTheRequestWasSent() {
        ServerClockBound bound = new ServerClockBound();
        bound.saw(1_000 * MS, 50_000);

        assertThat(bound.isKnown()).isTrue();
        assertThat(bound.latestServerMillis(1_000 * MS)).as("the truncated millisecond").isEqualTo(50_001);
        assertThat(bound.latestServerMillis(2_000 * MS)).as("a second later, with a millisecond of drift")
                .isEqualTo(50_001 + 1_000 + 1);
    }

    @Test
    void theTighterOfTwoAnswersIsKept() {
        ServerClockBound bound = new ServerClockBound();
        bound.saw(1_000 * MS, 50_000);
        bound.saw(1_500 * MS, 50_400); // answered sooner after its sending: 100 ms tighter
        assertThat(bound.latestServerMillis(2_000 * MS)).isEqualTo(50_400 + 1 + 501);

        bound.saw(1_900 * MS, 50_850); // a slow answer (its request waited 50 ms more in between) tells less
        assertThat(bound.latestServerMillis(2_000 * MS)).isEqualTo(50_400 + 1 + 501);
    }

    @Test
    void aSpanOfTheServersClockIsNoShorterHereThanItsDriftAllows() {
        assertThat(ServerClockBound.shortestLocalNanos(1_000)).isEqualTo((long) (1_000 * MS / (1 + ServerClockBound.DRIFT)))
                .isLessThan(1_000 * MS);
    }
}
