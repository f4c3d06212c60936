package dev.locksmith.internal.lock.ring;

import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.wire.OfferMessage;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * This process's seat in the ring of processes waiting for one reentrant or write lock (see
 * {@code release} in {@code exclusive.lua}), as its threads see it: whether it is in the ring,
 * the offer it heard and has not taken yet, and the offer its own last release made, which it
 * watches until it is taken. The seat is guarded by the mutex of the lock's
 * {@code LocalContention}; offers arrive on the process's own channel. An offer that no thread
 * here wants is passed on at once ({@link OfferDesk#decline}).
 *
 * <p>A grant (an offer that carries the taking waiter's fencing token) may be trusted on hearing
 * it, before Redis confirms it ({@link #trustHeardGrant}, {@link GrantTrust}).
 */
public final class ProcessRing {
    /** No offer. */
    private static final long NONE = -1;
    /** {@link #heardGrant()} when there is none. */
    public static final long NO_GRANT = OfferMessage.NO_GRANT;
    /** {@link #trustHeardGrant} when the grant cannot be trusted. */
    public static final long UNTRUSTED = Long.MIN_VALUE;

    private final ReentrantLock mutex;
    private final LockKeys keys;
    private final OfferDesk desk;
    private final String managerId;
    private boolean inRing;
    private long heardToken = NONE;
    private long heardNumber;
    private final GrantTrust grant;
    private long trustedToken = NONE;
    private long trustedNumber;
    private long messages; // offers heard and calls to ask again: an answer sent before one is stale
    private long watchedToken = NONE;

    public ProcessRing(ReentrantLock mutex, LockKeys keys, OfferDesk desk, String managerId) {
        this.mutex = mutex;
        this.keys = keys;
        this.desk = desk;
        this.managerId = managerId;
        this.grant = new GrantTrust(mutex);
    }

    /**
     * @return what this process may trust of grants of the lock, and the attempts it has under way
     */
    public GrantTrust grants() {
        return grant;
    }

    /**
     * @return true when this process is in the ring and no offer to it is pending: the first
     *         waiter waits for one instead of asking Redis
     */
    public boolean awaitsOffer() {
        mutex.lock();
        try {
            return inRing && heardToken == NONE;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return how many offers and calls to ask again arrived, to pass to {@link #attempted},
     *         {@link #releasedToRing} and {@link #releasedFree}
     */
    public long messages() {
        mutex.lock();
        try {
            return messages;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * An attempt of this process in Redis ended. If an offer or a call to ask again arrived while
     * it was under way, its answer is stale: the offer still stands, and the first waiter asks
     * again.
     *
     * @param heardBefore {@link #messages()} when the attempt was sent
     * @param granted     whether it acquired
     * @param joined      whether Redis answered that this process is in the ring
     */
    public void attempted(long heardBefore, boolean granted, boolean joined) {
        mutex.lock();
        try {
            if (granted) {
                inRing = false;
                forgetHeardOffer();
                watchedToken = NONE;
            } else if (messages == heardBefore) {
                inRing = joined;
                forgetHeardOffer();
            } else {
                inRing = false;
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return the fencing token of the grant heard and not taken yet, for the first waiter's own
     *         attempt to take ({@code take-grant}), or {@link #NO_GRANT}
     */
    public long heardGrant() {
        mutex.lock();
        try {
            return grant.grant();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Decides whether the waiter claimed for the grant just heard may hold the lock now, before
     * Redis confirms it ({@link GrantTrust}); a grant trusted is taken as far as this seat is
     * concerned, and never declined. The caller holds the mutex.
     *
     * @param nowNanos now, on the lease keeper's clock
     * @return until when, on that clock, nobody else can be given the lock, or {@link #UNTRUSTED}:
     *         the waiter then holds the lock only once Redis confirmed it
     */
    public long trustHeardGrant(long nowNanos) {
        long until = grant.trust(nowNanos);
        if (until != UNTRUSTED) {
            trustedToken = heardToken;
            trustedNumber = heardNumber;
            inRing = false;
            forgetHeardOffer();
        }
        return until;
    }

    /**
     * Passes on the grant last trusted ({@link #trustHeardGrant}) whose confirmation Redis
     * refused or did not answer: the waiter lost the lock, and a grant still standing would keep
     * it from everyone until the releaser's watch. Redis leaves a grant that was taken alone.
     */
    public void declineTrustedGrant() {
        mutex.lock();
        try {
            if (trustedToken != NONE) {
                desk.decline(keys, managerId, trustedToken, trustedNumber);
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * A release here offered the lock to another process; call before waking the line.
     *
     * @param token       the released hold's fencing token, which names the offer
     * @param staysInRing whether this process stayed in the ring
     * @param heardBefore {@link #messages()} read before the release was sent: an offer heard
     *                    since then came round after the release (on the pub/sub connection,
     *                    before the release's answer) and was taken in hand or passed on already
     */
    public void releasedToRing(long token, boolean staysInRing, long heardBefore) {
        mutex.lock();
        try {
            watchedToken = token;
            if (messages == heardBefore) {
                inRing = staysInRing;
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * A release here freed the lock without offering it: this process is no longer in the ring,
     * unless an offer came round meanwhile.
     */
    public void releasedFree(long heardBefore) {
        mutex.lock();
        try {
            if (messages == heardBefore) {
                leaveSeat();
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return whether the offer of that token, made by a release here, may still stand
     */
    boolean watches(long token) {
        mutex.lock();
        try {
            return watchedToken == token;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * This process stopped listening: it is no longer in the ring as far as its threads know.
     */
    public void leave() {
        mutex.lock();
        try {
            leaveSeat();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Everyone was told to ask Redis again ({@code *}): Redis may have lost the ring, or this
     * process missed an offer. The first waiter asks, and an offer heard still stands.
     */
    public void askAgain() {
        mutex.lock();
        try {
            noteAskAgain();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Passes on an offer heard and not taken: nothing here waits any more, or the process closes.
     */
    public void declineHeardOffer() {
        mutex.lock();
        try {
            if (heardToken != NONE) {
                decline();
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * An offer arrived; the caller holds the mutex.
     *
     * @param anyoneWaits whether a thread here waits for the lock
     * @return whether the first waiter takes it, it was passed on, or it could not be read
     */
    public OfferOutcome offered(String message, boolean anyoneWaits) {
        Optional<OfferMessage> offer = OfferMessage.parse(message);
        if (offer.isEmpty()) {
            // As after a wake-up for everyone: the first waiter's attempt takes a lock offered to
            // this process all the same; with nobody waiting, the releaser's watch passes it on.
            desk.unreadableOffer(keys, message);
            noteAskAgain();
            return OfferOutcome.UNREADABLE;
        }
        heard(offer.get());
        if (!anyoneWaits) {
            decline();
            return OfferOutcome.PASSED_ON;
        }
        return OfferOutcome.TAKE;
    }

    private void heard(OfferMessage offer) {
        long token = offer.token();
        heardToken = token;
        heardNumber = offer.number();
        grant.heard(offer);
        messages++;
        if (token != watchedToken) {
            // The lock went round the ring since this process offered it: its own offer was taken.
            watchedToken = NONE;
        }
    }

    private void noteAskAgain() {
        inRing = false;
        messages++;
    }

    private void decline() {
        long token = heardToken;
        long number = heardNumber;
        leaveSeat();
        desk.decline(keys, managerId, token, number);
    }

    private void leaveSeat() {
        inRing = false;
        forgetHeardOffer();
    }

    private void forgetHeardOffer() {
        heardToken = NONE;
        grant.forget();
    }
}
