package dev.locksmith.internal.wire;

/**
 * What a last release's script answers ({@code release}, {@code rw-release}, {@code keep},
 * {@code hand-over}): the lock is free, offered to the next waiting process, handed to a thread
 * of this process with a new fencing token, or the hold was no longer there.
 */
public sealed interface ReleaseReply {
    /** The hold was gone: its lease ran out, or it was force-unlocked. */
    ReleaseReply LOST = new Lost();
    /** The lock is free, or kept for the rest of its minimum hold. */
    ReleaseReply FREED = new Freed();
    /** The lock is offered to the next process of the ring. */
    ReleaseReply OFFERED = new Offered();

    /** See {@link #LOST}. */
    record Lost() implements ReleaseReply {
    }

    /** See {@link #FREED}. */
    record Freed() implements ReleaseReply {
    }

    /** See {@link #OFFERED}. */
    record Offered() implements ReleaseReply {
    }

    /**
     * The lock passed straight to the waiter the release named.
     *
     * @param fencingToken the taker's new token
     */
    record HandedOver(long fencingToken) implements ReleaseReply {
    }

    /**
     * @param reply     the script's answer: negative when the hold was gone; for a hand-over the
     *                  taker's token, otherwise 1 when offered and 0 when freed
     * @param handOver  whether the release named a taker ({@code hand-over})
     * @return what it means
     * @throws IllegalArgumentException if a release that named no taker answers anything else
     */
    static ReleaseReply read(long reply, boolean handOver) {
        if (reply < 0) {
            return LOST;
        }
        if (handOver) {
            return new HandedOver(reply);
        }
        if (reply == 0) {
            return FREED;
        }
        if (reply == 1) {
            return OFFERED;
        }
        throw new IllegalArgumentException("Not an answer of a releasing script: " + reply);
    }
}
