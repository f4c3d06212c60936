package dev.locksmith.internal.lock.ring;


/**
 * What this process knows of its place in the ring of processes waiting for one reentrant lock
 * (see {@code release} in {@code exclusive.lua}): whether it is in the ring, the offer it heard
 * and has not taken yet, and the offer its own last release made, which it watches until it
 * was taken. Not thread-safe: {@code LocalContention} guards it with its mutex.
 */
public final class RingSeat {
    /** No offer. */
    static final long NONE = -1;

    private boolean inRing;
    private long heardToken = NONE;
    private long heardNumber;
    private long messages; // offers heard and calls to ask again: an answer sent before one is stale
    private long watchedToken = NONE;

    /**
     * @return true when this process is in the ring and no offer to it is pending: its first
     *         waiter waits to be offered the lock instead of asking Redis
     */
    boolean awaitsOffer() {
        return inRing && heardToken == NONE;
    }

    /**
     * @return how many offers and calls to ask again arrived so far
     */
    long messages() {
        return messages;
    }

    /**
     * An offer to this process arrived.
     */
    void heard(long token, long number) {
        heardToken = token;
        heardNumber = number;
        messages++;
        if (token != watchedToken) {
            // The lock went round the ring since this process offered it: its own offer was taken.
            watchedToken = NONE;
        }
    }

    long heardToken() {
        return heardToken;
    }

    long heardNumber() {
        return heardNumber;
    }

    /**
     * An attempt of this process ended. If an offer or a call to ask again arrived while it was
     * under way, its answer is stale: the offer still stands, and the first waiter asks again.
     *
     * @param messagesBefore {@link #messages()} when the attempt was sent
     * @param granted        whether it acquired
     * @param joined         whether Redis answered that this process is in the ring
     */
    void attempted(long messagesBefore, boolean granted, boolean joined) {
        if (granted) {
            inRing = false;
            heardToken = NONE;
            watchedToken = NONE;
        } else if (messages == messagesBefore) {
            inRing = joined;
            heardToken = NONE;
        } else {
            inRing = false;
        }
    }

    /**
     * This process's release offered the lock to another process.
     *
     * @param token       the released hold's fencing token, which names the offer
     * @param staysInRing whether this process stayed in the ring
     * @param messagesBefore {@link #messages()} when the release was sent: an offer heard since
     *                       then came round after the release (on the pub/sub connection, before
     *                       the release's answer) and was taken in hand or passed on already
     */
    void released(long token, boolean staysInRing, long messagesBefore) {
        watchedToken = token;
        if (messages == messagesBefore) {
            inRing = staysInRing;
        }
    }

    /**
     * Everyone was told to ask Redis again ({@code *}): the first waiter asks, and an offer heard
     * still stands.
     */
    void askAgain() {
        inRing = false;
        messages++;
    }

    /**
     * @return whether this process still watches the offer of that token
     */
    boolean watches(long token) {
        return watchedToken == token;
    }

    /**
     * The offer heard is declined (no thread here wants the lock), or the process stopped
     * listening: it is no longer in the ring.
     */
    void leave() {
        inRing = false;
        heardToken = NONE;
    }
}
