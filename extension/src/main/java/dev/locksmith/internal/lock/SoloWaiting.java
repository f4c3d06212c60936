package dev.locksmith.internal.lock;

import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lock.local.Deadline;
import dev.locksmith.internal.lock.local.LocalContention;
import dev.locksmith.internal.lock.local.Waiting;
import dev.locksmith.internal.wire.AcquireReply;

/**
 * The wait of the read lock: each reader asks Redis on its own, so that readers of one name hold
 * together, and sleeps until any release message or a release here.
 */
final class SoloWaiting implements WaitStrategy {
    static final SoloWaiting INSTANCE = new SoloWaiting();

    private SoloWaiting() {
    }

    @Override
    public boolean asksBeforeWaiting() {
        return true;
    }

    @Override
    public Hold await(Acquisition acquisition, LocalContention contention, AcquireReply.Busy firstAnswer,
                      Deadline deadline, Waiting waiting) throws InterruptedException {
        Attempts attempts = acquisition.attempts(deadline);
        AcquireReply.Busy pendingAnswer = firstAnswer;
        boolean listening = false;
        while (true) {
            acquisition.checkOpen();
            long seen = contention.wakeUps().count();
            AcquireReply.Busy known = pendingAnswer; // only the first pass may use it: it goes stale
            pendingAnswer = null;
            long busyForMillis;
            if (known == null) {
                if (!(attempts.run(acquisition::attempt) instanceof AcquireReply.Busy busy)) {
                    return acquisition.granted();
                }
                busyForMillis = busy.forMillis();
            } else {
                busyForMillis = known.forMillis();
            }
            if (!listening && attempts.lastSucceeded() && !deadline.hasPassed()) {
                // Subscribe, then try again at once (see LineWaiting).
                if (attempts.tried(() -> acquisition.listen(contention))) {
                    listening = true;
                    continue;
                }
                busyForMillis = Attempts.RETRY_AFTER_FAILURE_MILLIS;
            }
            if (deadline.hasPassed()) {
                return attempts.endOfWait();
            }
            waiting.checkInterrupt();
            contention.wakeUps().awaitAfter(seen, acquisition.waitNanos(deadline, busyForMillis), waiting);
        }
    }
}
