package dev.locksmith.internal.lock;

import dev.locksmith.internal.lock.ring.OfferWatch;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * One scheduled check per lock watches the offer of the latest release, however often the lock
 * is released: each release replaces the offer watched and restarts its watch. A check that passed
 * an offer on follows it, unless a newer release replaced it meanwhile.
 */
class OfferWatchTest {
    private static final long WATCH = 5_000;

    private final OfferWatch watch = new OfferWatch();

    @Test
    void onlyTheFirstOfManyReleasesSchedulesACheck() {
        assertThat(watch.watch(10, 0, null, 0)).as("the first release schedules the check").isTrue();
        for (long token = 11; token < 1_000; token++) {
            assertThat(watch.watch(token, 0, null, token)).as("release of token %d", token).isFalse();
        }
    }

    @Test
    void aCheckBeforeTheLatestOfferIsDueRunsAgainWhenItIs() {
        watch.watch(10, 0, null, 0);
        watch.watch(11, 2, null, 3_000);

        assertThat(watch.due(5_000, WATCH)).as("the latest offer stood 2,000 of 5,000")
                .isEqualTo(new OfferWatch.Due(11, 2, null, 3_000));
        assertThat(watch.watch(12, 0, null, 6_000)).as("the check is still scheduled").isFalse();
        assertThat(watch.due(11_000, WATCH)).isEqualTo(new OfferWatch.Due(12, 0, null, 0));
    }

    @Test
    void aCheckThatFoundItsOfferDueLetsTheNextReleaseScheduleAnother() {
        watch.watch(10, 0, null, 0);
        assertThat(watch.due(WATCH, WATCH)).isEqualTo(new OfferWatch.Due(10, 0, null, 0));
        assertThat(watch.isIdle()).as("nothing watched, nothing scheduled").isTrue();

        assertThat(watch.due(WATCH + 1, WATCH)).as("nothing left to watch: the check ends").isNull();
        assertThat(watch.watch(11, 0, null, WATCH + 2)).as("so the next release schedules one").isTrue();
        assertThat(watch.isIdle()).isFalse();
    }

    @Test
    void aCheckThatPassedItsOfferOnFollowsIt() {
        watch.watch(10, 0, null, 0);
        watch.due(WATCH, WATCH);

        assertThat(watch.follow(10, 1, null, WATCH + 1)).as("schedules the check of the offer passed on").isTrue();
        assertThat(watch.due(2 * WATCH + 1, WATCH)).isEqualTo(new OfferWatch.Due(10, 1, null, 0));
    }

    @Test
    void aNewerReleaseWhileACheckPassesItsOfferOnIsWatchedInstead() {
        watch.watch(10, 0, null, 0);
        watch.due(WATCH, WATCH);
        assertThat(watch.watch(12, 0, null, WATCH + 1)).as("the newer release schedules a check").isTrue();

        assertThat(watch.follow(10, 1, null, WATCH + 2)).as("no second check").isFalse();
        assertThat(watch.due(2 * WATCH + 1, WATCH)).as("the newer offer stays the one watched")
                .isEqualTo(new OfferWatch.Due(12, 0, null, 0));
    }

    @Test
    void aCheckThatCouldNotBeScheduledIsScheduledByTheNextRelease() {
        watch.watch(10, 0, null, 0);
        watch.unscheduled();

        assertThat(watch.watch(11, 0, null, 1)).isTrue();
    }
}
