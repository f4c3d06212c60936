package dev.locksmith.internal.lock;

import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lock.local.Deadline;
import dev.locksmith.internal.lock.local.HandOver;
import dev.locksmith.internal.lock.local.LocalContention;
import dev.locksmith.internal.lock.local.Turn;
import dev.locksmith.internal.lock.local.Waiting;
import dev.locksmith.internal.wire.AcquireReply;
import java.util.concurrent.TimeUnit;

/**
 * The wait of the reentrant lock and the write lock: the threads of this process wait in a line
 * in arrival order and only the first asks Redis. While another thread here holds the lock, the
 * first waits for that holder's release (or a release message, for a force-unlock elsewhere)
 * instead of asking; a release here may hand the lock straight to a sleeping waiter
 * ({@link HandOver}). While this process is in the lock's ring of waiting processes, the first
 * waits until Redis offers the lock to this process; the thread that hears the offer asks for it
 * at once, on the first waiter's behalf, and wakes it with the answer.
 */
final class LineWaiting implements WaitStrategy {
    static final LineWaiting INSTANCE = new LineWaiting();

    private LineWaiting() {
    }

    @Override
    public boolean asksBeforeWaiting() {
        return true;
    }

    @Override
    public Hold await(Acquisition acquisition, LocalContention contention, AcquireReply.Busy firstAnswer,
                      Deadline deadline, Waiting waiting) throws InterruptedException {
        HandOver me = contention.waits().join(acquisition.owner(), acquisition.leaseMillis(), acquisition.threadName(),
                acquisition::sendOnOffer);
        Hold hold = null;
        try {
            hold = contend(acquisition, contention, me, firstAnswer, deadline, waiting);
            return hold;
        } finally {
            if (contention.waits().leave(me)) {
                acquisition.giveBackHandOver(me);
            }
            if (hold == null) {
                acquisition.withdraw();
            }
        }
    }

    private static Hold contend(Acquisition acquisition, LocalContention contention, HandOver me,
                                AcquireReply.Busy firstAnswer, Deadline deadline, Waiting waiting)
            throws InterruptedException {
        Attempts attempts = acquisition.attempts(deadline);
        AcquireReply.Busy pendingAnswer = firstAnswer;
        boolean listening = contention.isListening();
        boolean woken = false;
        // Until the lease of the last holder Redis named runs out; before any answer (this process
        // stayed in the ring after its own release), until a lease of this owner's length.
        long askAgainAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(acquisition.leaseMillis());
        Turn turn = contention.waits().awaitTurn(me, deadline, waiting);
        while (true) {
            if (turn == Turn.HANDED) {
                Hold handed = null;
                try {
                    handed = acquisition.grantHandOver(me);
                } finally {
                    contention.waits().handOverTaken(me, handed != null);
                }
                if (handed != null) {
                    return handed;
                }
                // A grant whose confirmation Redis refused before this waiter took it: back to the front, and ask Redis.
                woken = true;
                turn = Turn.ASK;
                continue;
            }
            if (turn == Turn.TIMED_OUT) {
                return attempts.endOfWait();
            }
            acquisition.mayAlreadyHoldSince(me.uncertainSince());
            long seen = contention.wakeUps().count();
            AcquireReply.Busy known = pendingAnswer; // only the first pass may use it: it goes stale
            pendingAnswer = null;
            // A wake-up (a release here or a message from Redis) means the lock may be free: ask.
            long busyForMillis = woken ? 0 : acquisition.localHolderLeaseLeftMillis();
            if (busyForMillis > 0) {
                // Listen all the same: a force-unlock elsewhere frees the lock without this holder's release.
                if (!listening) {
                    listening = attempts.tried(() -> acquisition.listen(contention));
                    if (!listening) {
                        busyForMillis = Math.min(busyForMillis, Attempts.RETRY_AFTER_FAILURE_MILLIS); // subscribe again soon
                    }
                }
            } else if (listening && contention.ring().awaitsOffer() && System.nanoTime() - askAgainAt < 0
                    && !deadline.hasPassed()) { // a tryLock() without a wait still asks once
                // A release offers the lock to this process in its turn: nothing to ask until then,
                // or until the lease of the holder Redis named last ran out (a holder that died
                // takes the ring with it).
                busyForMillis = TimeUnit.NANOSECONDS.toMillis(askAgainAt - System.nanoTime()) + 1;
            } else {
                if (known == null) {
                    if (!(attempts.run(() -> acquisition.attemptIn(contention)) instanceof AcquireReply.Busy busy)) {
                        return acquisition.granted();
                    }
                    busyForMillis = busy.forMillis();
                    askAgainAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(
                            busyForMillis < 0 ? acquisition.leaseMillis() : busyForMillis);
                } else {
                    busyForMillis = known.forMillis();
                }
                if (!listening && attempts.lastSucceeded() && !deadline.hasPassed()) {
                    // Subscribe, then try again at once: a release published before the subscription
                    // was confirmed would otherwise be missed and the wait would last a whole lease.
                    if (attempts.tried(() -> acquisition.listen(contention))) {
                        listening = true;
                        continue;
                    }
                    busyForMillis = Attempts.RETRY_AFTER_FAILURE_MILLIS;
                }
            }
            if (deadline.hasPassed()) {
                return attempts.endOfWait();
            }
            waiting.checkInterrupt();
            turn = contention.waits().awaitWakeUp(me, seen, acquisition.waitNanos(deadline, busyForMillis), waiting);
            woken = contention.wakeUps().count() != seen;
        }
    }
}
