package dev.locksmith.internal.lock;

import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lock.local.Deadline;
import dev.locksmith.internal.lock.local.LocalContention;
import dev.locksmith.internal.lock.local.QueueTurns;
import dev.locksmith.internal.lock.local.Waiting;
import dev.locksmith.internal.wire.AcquireReply;
import java.util.concurrent.TimeUnit;

/**
 * The wait of the fair lock: every waiter keeps its own place in the queue in Redis, across
 * processes, and sleeps until a release names it (or wakes everyone). It asks again before its
 * place lapses, so that only a dead waiter loses its place.
 */
final class QueueWaiting implements WaitStrategy {
    static final QueueWaiting INSTANCE = new QueueWaiting();

    private QueueWaiting() {
    }

    @Override
    public boolean asksBeforeWaiting() {
        return false; // a first attempt would join the queue; that is the wait itself
    }

    @Override
    public Hold await(Acquisition acquisition, LocalContention contention, AcquireReply.Busy firstAnswer,
                      Deadline deadline, Waiting waiting) throws InterruptedException {
        String owner = acquisition.owner();
        QueueTurns turns = contention.queueTurns();
        turns.join(owner);
        Hold hold = null;
        try {
            Attempts attempts = acquisition.attempts(deadline);
            boolean listening = false;
            while (true) {
                acquisition.checkOpen();
                long seen = turns.everyoneWoken();
                long retryListenIn = Long.MAX_VALUE;
                if (!listening) {
                    // Listen before joining the queue, so that a turn announced after the attempt
                    // reaches this process. A subscription that failed in a way a retry may get past
                    // is asked for again on every round (as the other kinds do) while the waiter
                    // asks Redis for its turn meanwhile.
                    listening = attempts.tried(() -> acquisition.listen(contention));
                    if (!listening) {
                        retryListenIn = Attempts.RETRY_AFTER_FAILURE_MILLIS;
                    }
                }
                if (!(attempts.run(acquisition::attempt) instanceof AcquireReply.Busy busy)) {
                    hold = acquisition.granted();
                    return hold;
                }
                long busyForMillis = busy.forMillis();
                if (deadline.hasPassed()) {
                    return attempts.endOfWait();
                }
                waiting.checkInterrupt();
                long nanos = Math.min(acquisition.waitNanos(deadline, busyForMillis),
                        TimeUnit.MILLISECONDS.toNanos(Math.min(acquisition.leaseMillis() / 3, retryListenIn)));
                turns.await(owner, seen, nanos, waiting);
            }
        } finally {
            turns.leave(owner);
            if (hold == null) {
                acquisition.withdraw();
            }
        }
    }
}
