package dev.locksmith.internal.lock.ring;

import dev.locksmith.internal.wire.OfferMessage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Whether the grant of the reentrant lock that this process heard last may be trusted before Redis
 * confirms it, from this process's clock alone. Nobody but this process passes a grant on until
 * its patience has run out since it was made ({@code pass-offer}). Every grant to this process
 * still standing was made after this process's latest attempt that Redis answered with "busy, in
 * the ring" (then, the lock was another's), and carries a higher fencing token than that attempt
 * spent; that attempt ran no earlier than it was sent. So a grant with a higher token than the
 * anchor stands at least until the anchor's sending plus the patience, counted
 * {@link #DRIFT} slower here. It is trusted only while at least half its patience is left by that
 * count, so that the confirmation sent on hearing it has that long to arrive; nor while an attempt
 * of this process is under way, which may take the grant itself, nor while the grant trusted last
 * is unconfirmed. Guarded by the mutex of its {@link ProcessRing}.
 */
public final class GrantTrust {
    /** How much faster than this process's clock the server's may run, at most: twice what NTP lets a clock slew. */
    static final double DRIFT = 0.001;
    private static final long NONE = -1;

    private final ReentrantLock mutex;
    private long grant = ProcessRing.NO_GRANT;
    private long patienceMillis;
    private long anchorToken = NONE;
    private long anchorSentNanos;
    private boolean unconfirmed;
    private int attemptsUnderWay;

    GrantTrust(ReentrantLock mutex) {
        this.mutex = mutex;
    }

    /**
     * Redis answered an attempt of this process "busy, in the ring": the anchor of the grants to
     * come, if it ran after every earlier one (it spent a higher token).
     *
     * @param sentNanos  when the attempt was sent, on the lease keeper's clock
     * @param spentToken the fencing token it spent
     */
    public void joinedRing(long sentNanos, long spentToken) {
        mutex.lock();
        try {
            if (spentToken > anchorToken) {
                anchorToken = spentToken;
                anchorSentNanos = sentNanos;
            }
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
        if (grant == ProcessRing.NO_GRANT || grant <= anchorToken || anchorToken == NONE || attemptsUnderWay > 0
                || unconfirmed) {
            return ProcessRing.UNTRUSTED;
        }
        long until = anchorSentNanos + (long) (TimeUnit.MILLISECONDS.toNanos(patienceMillis) / (1 + DRIFT));
        if (until - nowNanos < TimeUnit.MILLISECONDS.toNanos(patienceMillis) / 2) {
            return ProcessRing.UNTRUSTED;
        }
        unconfirmed = true;
        return until;
    }
}
