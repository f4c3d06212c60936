package dev.locksmith.internal.wire;

import java.util.List;

/**
 * What an acquiring script answers ({@code acquire}, {@code fair-acquire}, {@code rw-acquire},
 * and an attempt sent on an offer): {@code {1, fencing token}} when it granted the lock, or
 * {@code {0, ms until it may be free[, 1 when the owner's process is in the ring, the token the attempt spent]}}.
 */
public sealed interface AcquireReply {

    /**
     * @return whether the asking owner's process is in the lock's ring of waiting processes now: a
     *         granted attempt takes it out
     */
    boolean inRing();

    /**
     * The lock is the asking owner's now.
     *
     * @param fencingToken the new hold's token
     */
    record Granted(long fencingToken) implements AcquireReply {
        @Override
        public boolean inRing() {
            return false;
        }
    }

    /**
     * Someone else holds the lock, or it is offered to another process.
     *
     * @param forMillis how long until it may be free: 0 when it is running out right now, negative
     *                  when Redis knows no expiry (only a release, or a lease's time, ends the wait)
     * @param inRing    whether the asking owner's process is in the lock's ring of waiting processes
     * @param spentToken the fencing token the attempt spent, or {@link #NO_TOKEN}: Redis tells it to
     *                  a process in the ring, whose grants still standing all carry higher ones
     *                  ({@code GrantTrust})
     */
    record Busy(long forMillis, boolean inRing, long spentToken) implements AcquireReply {
        /** {@link #spentToken()} of an answer that did not tell it. */
        public static final long NO_TOKEN = -1;

        /**
         * An answer that does not tell the token spent.
         */
        public Busy(long forMillis, boolean inRing) {
            this(forMillis, inRing, NO_TOKEN);
        }
    }

    /**
     * @param reply the script's answer
     * @return what it means
     * @throws IllegalArgumentException if it is neither form
     */
    static AcquireReply read(List<Long> reply) {
        if (reply == null || reply.size() < 2 || reply.get(0) == null || reply.get(1) == null) {
            throw new IllegalArgumentException("Not an answer of an acquiring script: " + reply);
        }
        if (reply.get(0) == 1L) {
            return new Granted(reply.get(1));
        }
        if (reply.get(0) == 0L) {
            return new Busy(reply.get(1), reply.size() > 2 && Long.valueOf(1L).equals(reply.get(2)),
                    reply.size() > 3 && reply.get(3) != null ? reply.get(3) : Busy.NO_TOKEN);
        }
        throw new IllegalArgumentException("Not an answer of an acquiring script: " + reply);
    }
}
