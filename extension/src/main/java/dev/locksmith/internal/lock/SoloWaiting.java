package dev.locksmith.internal.lock;

import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lock.local.Deadline;
import dev.locksmith.internal.lock.local.LocalContention;
import dev.locksmith.internal.lock.local.Waiting;

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
    public Hold await(Acquisition acquisition, LocalContention contention, long firstAnswer, Deadline deadline,
                      Waiting waiting) throws InterruptedException {
        Attempts attempts = acquisition.attempts(deadline);
        long pendingAnswer = firstAnswer;
        boolean listening = false;
        while (true) {
            acquisition.checkOpen();
            long seen = contention.wakeUps().count();
            long busyForMillis = pendingAnswer; // only the first pass may use it: it goes stale
            pendingAnswer = Acquisition.NOT_ASKED;
            if (busyForMillis == Acquisition.NOT_ASKED) {
                busyForMillis = attempts.run(acquisition::attempt);
                if (busyForMillis == Acquisition.ACQUIRED) {
                    return acquisition.granted();
                }
            }
            if (!listening && attempts.lastSucceeded() && !deadline.hasPassed()) {
                // Subscribe, then try again at once (see LineWaiting).
                long subscribed = attempts.run(() -> acquisition.listen(contention));
                if (subscribed == 0) {
                    listening = true;
                    continue;
                }
                busyForMillis = subscribed;
            }
            if (deadline.hasPassed()) {
                return attempts.endOfWait();
            }
            waiting.checkInterrupt();
            contention.wakeUps().awaitAfter(seen, acquisition.waitNanos(deadline, busyForMillis), waiting);
        }
    }
}
