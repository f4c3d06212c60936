package dev.locksmith.internal.lock.local;

import dev.locksmith.internal.lock.ring.OfferAttempt;
import dev.locksmith.internal.lock.ring.ProcessRing;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The waiting threads' side of one lock's line in this process: a thread joins, sleeps until its
 * turn to ask Redis, a wake-up or a hand-over ({@link HandOver} has the protocol), says whether
 * it took a hand-over, and leaves. Each call takes the lock's mutex.
 */
public final class LineWaits {
    private final ReentrantLock mutex;
    private final WaiterLine line;
    private final WakeUps wakeUps;
    private final ManagerState state;
    private final ProcessRing ring;

    LineWaits(ReentrantLock mutex, WaiterLine line, WakeUps wakeUps, ManagerState state, ProcessRing ring) {
        this.mutex = mutex;
        this.line = line;
        this.wakeUps = wakeUps;
        this.state = state;
        this.ring = ring;
    }

    /**
     * @param offerAttempt what the waiter asks Redis when this process is offered the lock, sent
     *                     for it by the pub/sub thread if it sleeps first in line then
     * @return a new waiter at the end of the line
     */
    public HandOver join(String owner, long leaseMillis, String threadName, OfferAttempt offerAttempt) {
        mutex.lock();
        try {
            return line.join(owner, leaseMillis, threadName, offerAttempt);
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Waits until {@code me} is first in line with no hand-over to another waiter under way, or a
     * release here handed it the lock, or the deadline.
     *
     * @throws InterruptedException  if {@code waiting} is interruptible and the thread was
     *                               interrupted before a release here claimed it
     * @throws IllegalStateException if the manager closed
     */
    public Turn awaitTurn(HandOver me, Deadline deadline, Waiting waiting) throws InterruptedException {
        mutex.lock();
        try {
            while (true) {
                Turn settled = line.collect(me);
                if (settled != null) {
                    return settled;
                }
                state.checkOpen();
                if (line.mayAsk(me)) {
                    return Turn.ASK;
                }
                long left = deadline.remainingNanos();
                if (left <= 0) {
                    return Turn.TIMED_OUT;
                }
                line.park(me, left, waiting);
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * The first waiter of the line sleeps until any wake-up came since {@code seen} was read, the
     * timeout, or a release here claims it.
     *
     * @throws IllegalStateException if the manager closed
     */
    public Turn awaitWakeUp(HandOver me, long seen, long timeoutNanos, Waiting waiting) throws InterruptedException {
        mutex.lock();
        try {
            long deadline = System.nanoTime() + timeoutNanos;
            while (true) {
                Turn settled = line.collect(me);
                if (settled != null) {
                    return settled;
                }
                state.checkOpen();
                long left = deadline - System.nanoTime();
                if (wakeUps.countUnderMutex() != seen || left <= 0) {
                    return Turn.ASK;
                }
                line.park(me, left, waiting);
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Says that {@code me}, handed the lock ({@link Turn#HANDED}), recorded its hold, or failed
     * to: the next waiter of the line, first now, finds that hold instead of asking Redis. A
     * grant refused before {@code me} took it sends {@code me} back to the front instead
     * ({@code WaiterLine#handOverRefused}), to ask Redis, where offers to this process find it.
     *
     * @param taken false when {@code me} holds nothing: its grant was refused
     */
    public void handOverTaken(HandOver me, boolean taken) {
        mutex.lock();
        try {
            if (taken) {
                line.taken(me);
            } else {
                line.handOverRefused(me);
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Leaves the line for good; the next waiter becomes first.
     *
     * @return true when a release here handed {@code me} the lock that it did not collect: the
     *         caller must give that hold back
     */
    public boolean leave(HandOver me) {
        mutex.lock();
        try {
            boolean uncollected = line.leave(me);
            if (line.isEmpty()) {
                ring.declineHeardOffer();
            }
            return uncollected;
        } finally {
            mutex.unlock();
        }
    }
}
