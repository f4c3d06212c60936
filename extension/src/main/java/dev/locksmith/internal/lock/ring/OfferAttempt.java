package dev.locksmith.internal.lock.ring;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The attempt a sleeping waiter of the line would make once Redis offers the lock to its process.
 * The pub/sub thread that hears the offer sends it at once, on the waiter's behalf, and wakes the
 * waiter with the answer ({@code LocalContention#wake(String)}): the waiter wakes holding the lock
 * instead of waking to ask for it, which takes one thread wake-up off every hand-off between
 * processes.
 */
@FunctionalInterface
public interface OfferAttempt {

    /**
     * Sends the attempt without waiting; called on the pub/sub thread, so it never blocks.
     *
     * @param grant the fencing token of the grant heard, which the attempt takes ({@code take-grant}),
     *              or {@link ProcessRing#NO_GRANT} for an offer without one (the kind's acquisition)
     * @return the pending answer: {1, fencing token} when acquired, otherwise {0, ms until the lock
     *         may be free[, 1 when this process is in the ring, the server's ms]}
     */
    CompletionStage<List<Long>> send(long grant);
}
