package dev.locksmith.internal.lock.ring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.internal.wire.OfferMessage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

/**
 * When a grant heard may be trusted, on this process's clock alone: it must be newer (a higher
 * token) than the anchor, the latest attempt answered "busy, in the ring", and at least half its
 * patience must be left, counted from the anchor's sending and {@code DRIFT} slower here. Pure
 * arithmetic on given clocks.
 */
class GrantTrustTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long PATIENCE = 1_000;

    private final GrantTrust trust = new GrantTrust(new ReentrantLock());

    @Test
    void aGrantNewerThanTheAnchorIsTrustedUntilThePatienceRanOutFromTheAnchorsSending() {
        trust.joinedRing(1_000 * MS, 40);
        trust.heard(new OfferMessage(30, 0, 57, PATIENCE));

        long until = trust.trust(1_100 * MS);
        assertThat(until).isEqualTo(1_000 * MS + (long) (PATIENCE * MS / (1 + GrantTrust.DRIFT)))
                .isLessThan(2_000 * MS);
        assertThat(trust.trust(1_100 * MS)).as("the grant trusted last is unconfirmed").isEqualTo(ProcessRing.UNTRUSTED);
        trust.settled();
        assertThat(trust.trust(1_100 * MS)).isEqualTo(until);
    }

    @Test
    void aGrantHeardWithLessThanHalfItsPatienceLeftIsNotTrusted() {
        trust.joinedRing(1_000 * MS, 40);
        trust.heard(new OfferMessage(30, 0, 57, PATIENCE));

        assertThat(trust.trust(1_600 * MS)).isEqualTo(ProcessRing.UNTRUSTED);
    }

    @Test
    void aGrantNoNewerThanTheLatestAttemptInTheRingIsStale() {
        trust.joinedRing(1_000 * MS, 40);
        trust.joinedRing(900 * MS, 60); // answered later, spent a higher token: the anchor
        trust.joinedRing(1_050 * MS, 50); // an older attempt's late answer changes nothing
        trust.heard(new OfferMessage(30, 0, 57, PATIENCE));

        assertThat(trust.trust(1_100 * MS)).as("made before the attempt that spent 60").isEqualTo(ProcessRing.UNTRUSTED);
        trust.heard(new OfferMessage(30, 0, 61, PATIENCE));
        assertThat(trust.trust(1_100 * MS)).isEqualTo(900 * MS + (long) (PATIENCE * MS / (1 + GrantTrust.DRIFT)));
    }

    /**
     * The scale benchmark's failure (2 processes): an attempt here took the grant to this process
     * ('g'), its hold was released, and the grant's message came after that: it must not be trusted.
     * An attempt that got the lock anchors as one that found it busy does.
     */
    @Test
    void aGrantThatAnAttemptHereTookIsStaleWhenItsMessageComesLate() {
        trust.joinedRing(1_000 * MS, 909);
        trust.joinedRing(1_001 * MS, 911); // the attempt that took grant 910 and got 911
        trust.heard(new OfferMessage(908, 0, 910, PATIENCE));

        assertThat(trust.trust(1_002 * MS)).isEqualTo(ProcessRing.UNTRUSTED);
    }

    @Test
    void nothingIsTrustedWithoutAnAnchorOrWhileAnAttemptHereIsUnderWay() {
        trust.heard(new OfferMessage(30, 0, 57, PATIENCE));
        assertThat(trust.trust(1_000 * MS)).as("no anchor").isEqualTo(ProcessRing.UNTRUSTED);

        trust.joinedRing(1_000 * MS, 40);
        assertThat(trust.beginAttempt()).as("may take a grant itself").isTrue();
        assertThat(trust.trust(1_000 * MS)).as("an attempt under way").isEqualTo(ProcessRing.UNTRUSTED);
        trust.endAttempt();
        assertThat(trust.trust(1_000 * MS)).isNotEqualTo(ProcessRing.UNTRUSTED);
        assertThat(trust.beginAttempt()).as("a grant is held here on its word").isFalse();
    }
}
