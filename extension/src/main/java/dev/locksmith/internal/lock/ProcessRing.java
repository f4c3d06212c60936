package dev.locksmith.internal.lock;

import dev.locksmith.internal.wire.OfferMessage;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * This process's place in the ring of processes waiting for one lock (see {@code release} in
 * {@code exclusive.lua}), as its threads see it: what {@link RingSeat} knows, guarded by the
 * mutex of the lock's {@link LocalContention}, and the offers that arrive on the process's own
 * channel. An offer that no thread here wants is passed on at once ({@link OfferDesk#decline}).
 */
final class ProcessRing {
    private final ReentrantLock mutex;
    private final LockKeys keys;
    private final OfferDesk desk;
    private final String managerId;
    private final RingSeat seat = new RingSeat();

    ProcessRing(ReentrantLock mutex, LockKeys keys, OfferDesk desk, String managerId) {
        this.mutex = mutex;
        this.keys = keys;
        this.desk = desk;
        this.managerId = managerId;
    }

    /**
     * @return true when this process is in the ring and no offer to it is pending: the first
     *         waiter waits for one instead of asking Redis
     */
    boolean awaitsOffer() {
        mutex.lock();
        try {
            return seat.awaitsOffer();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return how many offers and calls to ask again arrived, to pass to {@link #attempted},
     *         {@link #releasedToRing} and {@link #releasedFree}
     */
    long messages() {
        mutex.lock();
        try {
            return seat.messages();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * An attempt in Redis ended (see {@link RingSeat#attempted}).
     */
    void attempted(long heardBefore, boolean granted, boolean inRing) {
        mutex.lock();
        try {
            seat.attempted(heardBefore, granted, inRing);
        } finally {
            mutex.unlock();
        }
    }

    /**
     * A release here offered the lock to another process; call before waking the line.
     *
     * @param token       the released hold's fencing token
     * @param staysInRing whether this process stayed in the ring
     * @param heardBefore {@link #messages()} read before the release was sent
     */
    void releasedToRing(long token, boolean staysInRing, long heardBefore) {
        mutex.lock();
        try {
            seat.released(token, staysInRing, heardBefore);
        } finally {
            mutex.unlock();
        }
    }

    /**
     * A release here freed the lock without offering it: this process is no longer in the ring,
     * unless an offer came round meanwhile.
     */
    void releasedFree(long heardBefore) {
        mutex.lock();
        try {
            if (seat.messages() == heardBefore) {
                seat.leave();
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
            return seat.watches(token);
        } finally {
            mutex.unlock();
        }
    }

    /**
     * This process stopped listening: it is no longer in the ring as far as its threads know.
     */
    void leave() {
        mutex.lock();
        try {
            seat.leave();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Everyone was told to ask Redis again: Redis may have lost the ring, or this process missed
     * an offer. An offer heard still stands.
     */
    void askAgain() {
        mutex.lock();
        try {
            seat.askAgain();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Passes on an offer heard and not taken: nothing here waits any more, or the process closes.
     */
    void declineHeardOffer() {
        mutex.lock();
        try {
            if (seat.heardToken() != RingSeat.NONE) {
                decline();
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * What this process does with an offer it heard ({@link #offered}).
     */
    enum Heard {
        /** The first waiter should take it. */
        TAKE,
        /** Nothing here waits any more: it was passed on. */
        PASSED_ON,
        /** Another version wrote it: the first waiter asks Redis, as after any wake-up. */
        UNREADABLE
    }

    /**
     * An offer arrived; the caller holds the mutex.
     *
     * @param anyoneWaits whether a thread here waits for the lock
     * @return whether the first waiter takes it, it was passed on, or it could not be read
     */
    Heard offered(String message, boolean anyoneWaits) {
        Optional<OfferMessage> offer = OfferMessage.parse(message);
        if (offer.isEmpty()) {
            // As after a wake-up for everyone: the first waiter's attempt takes a lock offered to
            // this process all the same; with nobody waiting, the releaser's watch passes it on.
            desk.unreadableOffer(keys, message);
            seat.askAgain();
            return Heard.UNREADABLE;
        }
        seat.heard(offer.get().token(), offer.get().number());
        if (!anyoneWaits) {
            decline();
            return Heard.PASSED_ON;
        }
        return Heard.TAKE;
    }

    private void decline() {
        long token = seat.heardToken();
        long number = seat.heardNumber();
        seat.leave();
        desk.decline(keys, managerId, token, number);
    }
}
