package dev.locksmith.internal.lock.ring;

import dev.locksmith.internal.wire.OfferMessage;

/**
 * Whether the grant of the reentrant lock that this process heard last may be trusted before Redis
 * confirms it. Nobody but this process passes a grant on until its patience has run out on the
 * server's clock ({@code pass-offer}); this process bounds that clock from its own
 * ({@link ServerClockBound}), and trusts a grant only while at least half its patience is left, so
 * that the confirmation it sends on hearing it has that long to arrive. Guarded by the mutex of
 * its {@link ProcessRing}.
 */
final class GrantTrust {
    private final ServerClockBound serverClock = new ServerClockBound();
    private long grant = ProcessRing.NO_GRANT;
    private long grantedMillis;
    private long patienceMillis;

    /**
     * An offer was heard: its grant, if it carries one, is the one judged from now on.
     */
    void heard(OfferMessage offer) {
        grant = offer.grant();
        grantedMillis = offer.grantedMillis();
        patienceMillis = offer.patienceMillis();
    }

    /**
     * The grant heard was taken, declined or answered: there is none to judge.
     */
    void forget() {
        grant = ProcessRing.NO_GRANT;
    }

    /**
     * @return the fencing token of the grant heard, or {@link ProcessRing#NO_GRANT}
     */
    long grant() {
        return grant;
    }

    /**
     * @see ServerClockBound#saw
     */
    void serverTimeSeen(long sentNanos, long serverMillis) {
        serverClock.saw(sentNanos, serverMillis);
    }

    /**
     * @param nowNanos now, on the lease keeper's clock
     * @return until when, on that clock, nobody else can be given the lock, or
     *         {@link ProcessRing#UNTRUSTED} when no grant was heard, no answer told the server's time
     *         yet, or less than half the grant's patience may be left
     */
    long trustedUntil(long nowNanos) {
        if (grant == ProcessRing.NO_GRANT || !serverClock.isKnown()) {
            return ProcessRing.UNTRUSTED;
        }
        long leftMillis = grantedMillis + patienceMillis - serverClock.latestServerMillis(nowNanos);
        if (leftMillis * 2 < patienceMillis) {
            return ProcessRing.UNTRUSTED;
        }
        return nowNanos + ServerClockBound.shortestLocalNanos(leftMillis);
    }
}
