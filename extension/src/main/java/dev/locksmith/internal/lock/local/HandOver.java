package dev.locksmith.internal.lock.local;

import dev.locksmith.internal.lock.kind.AcquireRequest;
import dev.locksmith.internal.lock.ring.OfferAttempt;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.Condition;

/**
 * One thread of this process in the line for a lock, and the hand-over that a release here, or an
 * offer of the lock to this process, may make to it: the protocol between the waiting thread and
 * the thread that claims it. Every transition happens under the mutex of the lock's line
 * ({@link WaiterLine}), through {@link #moveTo}, which refuses a step the protocol does not have.
 *
 * <pre>
 *   WAITING --(sleeps)--&gt; PARKED --(wakes)--&gt; WAITING
 *   PARKED --(a release here, or an offer, claims it)--&gt; CLAIMED --(settle)--&gt; HANDED | FELL_THROUGH
 *   HANDED --(the waiter sees it)--&gt; TAKING --(it recorded the hold, or failed to)--&gt; WAITING
 *   HANDED --(the waiter left without seeing it: it gives the hold back)--&gt; WAITING
 *   FELL_THROUGH --(the waiter sees it)--&gt; WAITING, first in line
 * </pre>
 *
 * <ul>
 *   <li>The waiting thread moves WAITING and PARKED, and collects HANDED or FELL_THROUGH. While
 *       CLAIMED it waits for the settle, through interrupts and {@code close()}, for at most
 *       the longest a round trip can take; then it settles the hand-over itself as fallen through.</li>
 *   <li>The claiming thread always settles it: HANDED with the waiter's fencing token when Redis
 *       passed the lock, FELL_THROUGH otherwise. A releasing thread (a caller of {@code unlock()},
 *       or a transaction's completion thread) claims a PARKED waiter and settles it in a
 *       {@code finally}; the pub/sub thread that hears an offer claims the first waiter if it is
 *       PARKED, sends its {@code OfferAttempt}, and settles it when the answer comes.</li>
 *   <li>From CLAIMED until it is WAITING again, the hand-over is under way
 *       ({@link State#isUnderWay()}): the next waiter of the line waits for it, as the lock may be
 *       this process's already.</li>
 *   <li>A grant to this process may be handed on its word ({@link #handedOnGrant}): the waiter
 *       holds the lock at once, and Redis's answer to the grant's confirmation settles the hold
 *       later, not the hand-over.</li>
 *   <li>A hand-over whose answer never came may still have passed the lock; the waiter then asks
 *       Redis, where its acquisition finds its own hold ({@link #uncertainSince()}).</li>
 * </ul>
 */
public final class HandOver {
    /** Where the protocol stands; see the class comment. */
    public enum State {
        WAITING, PARKED, CLAIMED, HANDED, TAKING, FELL_THROUGH;

        /**
         * @return whether the protocol has the step from this state to {@code next}
         */
        public boolean mayFollow(State next) {
            return switch (this) {
                case WAITING -> next == PARKED;
                case PARKED -> next == WAITING || next == CLAIMED;
                case CLAIMED -> next == HANDED || next == FELL_THROUGH;
                case HANDED -> next == TAKING || next == WAITING;
                case TAKING, FELL_THROUGH -> next == WAITING;
            };
        }

        /**
         * @return whether a hand-over to this waiter is under way: claimed, settled and not yet
         *         collected, or handed and not yet recorded as its hold
         */
        public boolean isUnderWay() {
            return this == CLAIMED || this == HANDED || this == TAKING || this == FELL_THROUGH;
        }
    }

    /** {@link #uncertainSince()} when no hand-over of unknown outcome was made to this waiter. */
    public static final long NONE = Long.MIN_VALUE;

    private final String owner;
    private final long leaseMillis;
    private final String threadName;
    private final Condition signal;
    private final OfferAttempt offerAttempt;
    private State state = State.WAITING;
    private long claimedAt;
    private long token;
    private long sentAt;
    private long uncertainSince = NONE;
    private long trustedUntil;
    private CompletionStage<List<Long>> confirmation;

    /**
     * @param owner       who waits
     * @param leaseMillis the lease it asks for
     * @param threadName  the waiting thread, shown by inspection once it holds the lock
     * @param signal       a condition of the line's mutex, for this waiter alone
     * @param offerAttempt what the waiter would ask Redis when its process is offered the lock
     */
    HandOver(String owner, long leaseMillis, String threadName, Condition signal, OfferAttempt offerAttempt) {
        this.owner = owner;
        this.leaseMillis = leaseMillis;
        this.threadName = threadName;
        this.signal = signal;
        this.offerAttempt = offerAttempt;
    }

    /**
     * @return what the waiter would ask Redis for, as of {@code sinceMillis}
     */
    public AcquireRequest request(long sinceMillis, long counterLifetimeMillis) {
        return new AcquireRequest(owner, leaseMillis, sinceMillis, threadName, counterLifetimeMillis, false);
    }

    OfferAttempt offerAttempt() {
        return offerAttempt;
    }

    Condition signal() {
        return signal;
    }

    State state() {
        return state;
    }

    /**
     * @throws IllegalStateException if the protocol has no step from the current state to {@code next}
     */
    void moveTo(State next) {
        if (!state.mayFollow(next)) {
            throw new IllegalStateException("A waiter for a lock cannot go from " + state + " to " + next
                    + " (thread " + threadName + ")");
        }
        state = next;
    }

    /**
     * @param at when a release here claimed it, on the lease keeper's clock: no later than the
     *           hand-over is sent
     */
    void claimed(long at) {
        moveTo(State.CLAIMED);
        claimedAt = at;
    }

    long claimedAt() {
        return claimedAt;
    }

    /**
     * @param handedToken the waiter's fencing token
     * @param handedAt    when the hand-over was sent, on the lease keeper's clock: where the lease starts
     */
    void handed(long handedToken, long handedAt) {
        moveTo(State.HANDED);
        token = handedToken;
        sentAt = handedAt;
    }

    /**
     * Hands the waiter a grant to this process on its word, before Redis confirmed it.
     *
     * @param grant      the grant's fencing token
     * @param heardAt    when the grant was heard and its confirmation sent, on the lease keeper's clock
     * @param until      until when nobody else can be given the lock, on that clock
     * @param confirming the confirmation's pending answer ({@code take-grant})
     */
    void handedOnGrant(long grant, long heardAt, long until, CompletionStage<List<Long>> confirming) {
        handed(grant, heardAt);
        trustedUntil = until;
        confirmation = confirming;
    }

    /**
     * @return the pending confirmation of a grant handed on its word, or null when Redis
     *         confirmed the hand-over before the waiter was handed it
     */
    public CompletionStage<List<Long>> confirmation() {
        return confirmation;
    }

    /**
     * @return until when, on the lease keeper's clock, nobody else can be given a lock handed on a
     *         grant's word ({@link #confirmation()})
     */
    public long trustedUntil() {
        return trustedUntil;
    }

    /**
     * @param handedAt when the hand-over was sent
     * @param uncertain whether Redis may have passed the lock all the same (no answer came)
     */
    void fellThrough(long handedAt, boolean uncertain) {
        moveTo(State.FELL_THROUGH);
        if (uncertain) {
            uncertainSince = uncertainSince == NONE ? handedAt : Math.min(uncertainSince, handedAt);
        }
    }

    public long token() {
        return token;
    }

    public long sentAt() {
        return sentAt;
    }

    /**
     * @return when a hand-over to this waiter whose outcome is unknown was sent, on the lease
     *         keeper's clock, or {@link #NONE}: a hold this waiter then finds in Redis may date
     *         from that moment, so its lease counts from there
     */
    public long uncertainSince() {
        return uncertainSince;
    }
}
