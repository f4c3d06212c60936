package dev.locksmith.internal.lock;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * One scheduled check per lock watches the offer of the latest release, however often the lock
 * is released: each release replaces the offer watched and restarts its watch.
 */
class OfferWatchTest {
    private static final long WATCH = 5_000;

    private final OfferWatch watch = new OfferWatch();

    @Test
    void onlyTheFirstOfManyReleasesSchedulesACheck() {
        assertThat(watch.watch(10, 0, 0)).as("the first release schedules the check").isTrue();
        for (long token = 11; token < 1_000; token++) {
            assertThat(watch.watch(token, 0, token)).as("release of token %d", token).isFalse();
        }
    }

    @Test
    void aCheckBeforeTheLatestOfferIsDueRunsAgainWhenItIs() {
        watch.watch(10, 0, 0);
        watch.watch(11, 2, 3_000);

        assertThat(watch.due(5_000, WATCH)).as("the latest offer stood 2,000 of 5,000")
                .isEqualTo(new OfferWatch.Due(11, 2, 3_000));
        assertThat(watch.watch(12, 0, 6_000)).as("the check is still scheduled").isFalse();
        assertThat(watch.due(11_000, WATCH)).isEqualTo(new OfferWatch.Due(12, 0, 0));
    }

    @Test
    void aCheckThatFoundItsOfferDueLetsTheNextReleaseScheduleAnother() {
        watch.watch(10, 0, 0);
        assertThat(watch.due(WATCH, WATCH)).isEqualTo(new OfferWatch.Due(10, 0, 0));

        assertThat(watch.due(WATCH + 1, WATCH)).as("nothing left to watch: the check ends").isNull();
        assertThat(watch.watch(11, 0, WATCH + 2)).as("so the next release schedules one").isTrue();
    }

    @Test
    void aCheckThatCouldNotBeScheduledIsScheduledByTheNextRelease() {
        watch.watch(10, 0, 0);
        watch.unscheduled();

        assertThat(watch.watch(11, 0, 1)).isTrue();
    }
}
