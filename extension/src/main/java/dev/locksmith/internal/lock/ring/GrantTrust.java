package dev.locksmith.internal.lock.ring;

import dev.locksmith.internal.wire.OfferMessage;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Whether the grant of the reentrant lock that this process heard last may be trusted before Redis
 * confirms it. Nobody but this process passes a grant on until its patience has run out on the
 * server's clock ({@code pass-offer}); this process bounds that clock from its own
 * ({@link ServerClockBound}), and trusts a grant only while at least half its patience is left, so
 * that the confirmation it sends on hearing it has that long to arrive. Nor does it trust one while
 * an attempt of its own is under way, which may take the grant itself, or while the grant it trusted
 * last is unconfirmed. Guarded by the mutex of its {@link ProcessRing}.
 */
public final class GrantTrust {
    private final ReentrantLock mutex;
    private final ServerClockBound serverClock = new ServerClockBound();
    private long grant = ProcessRing.NO_GRANT;
    private long grantedMillis;
    private long patienceMillis;
    private boolean unconfirmed;
    private int attemptsUnderWay;

    GrantTrust(ReentrantLock mutex) {
        this.mutex = mutex;
    }

    /**
     * An answer of an attempt told the server's time: it bounds the server's clock from now on.
     *
     * @param sentNanos    when the attempt was sent, on the lease keeper's clock
     * @param serverMillis the server's time in the answer
     */
    public void serverTimeSeen(long sentNanos, long serverMillis) {
        mutex.lock();
        try {
            serverClock.saw(sentNanos, serverMillis);
        } finally {
            mutex.unlock();
        }
    }

    /**
     * An attempt of a thread here is about to be sent; {@link #endAttempt()} must follow. While it
     * is under way no grant is trusted, so that it may take one itself.
     *
     * @return whether the attempt may take a grant to this process: none is held here on its word
     */
    public boolean beginAttempt() {
        mutex.lock();
        try {
            attemptsUnderWay++;
            return !unconfirmed;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * The attempt begun by {@link #beginAttempt()} was answered, and its hold recorded, or it failed.
     */
    public void endAttempt() {
        mutex.lock();
        try {
            attemptsUnderWay--;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Redis answered the confirmation of the grant trusted last, or failed to: attempts here may
     * take a grant to this process again. The caller holds the mutex.
     */
    public void settled() {
        unconfirmed = false;
    }

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
     * Trusts the grant heard, if it may be: it is then unconfirmed until {@link #settled()}.
     *
     * @param nowNanos now, on the lease keeper's clock
     * @return until when, on that clock, nobody else can be given the lock, or
     *         {@link ProcessRing#UNTRUSTED}
     */
    long trust(long nowNanos) {
        if (grant == ProcessRing.NO_GRANT || !serverClock.isKnown() || attemptsUnderWay > 0 || unconfirmed) {
            return ProcessRing.UNTRUSTED;
        }
        long leftMillis = grantedMillis + patienceMillis - serverClock.latestServerMillis(nowNanos);
        if (leftMillis * 2 < patienceMillis) {
            return ProcessRing.UNTRUSTED;
        }
        unconfirmed = true;
        return nowNanos + ServerClockBound.shortestLocalNanos(leftMillis);
    }
}
