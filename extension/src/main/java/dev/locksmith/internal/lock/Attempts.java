package dev.locksmith.internal.lock;

import dev.locksmith.LockException;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lock.local.Deadline;
import dev.locksmith.internal.lock.local.Waiting;
import dev.locksmith.internal.redis.RedisErrors;
import dev.locksmith.internal.wire.AcquireReply;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.function.Supplier;

/**
 * The attempts of one wait. A round trip that fails in a way a retry may get past (Redis
 * restarting, loading, a failover, a network blip) is asked again shortly while time is left;
 * that failure is thrown only if the wait ends on it. A request Redis refused (a missing
 * permission, a wrong key type) fails the wait at once.
 */
final class Attempts {
    /** How long a failed attempt waits before the next, while the wait lasts. */
    static final long RETRY_AFTER_FAILURE_MILLIS = 100;
    private static final Logger LOG = System.getLogger(Attempts.class.getName());

    private final Deadline deadline;
    private final String description;
    private LockException failure;

    /**
     * @param description how messages name the lock
     */
    Attempts(Deadline deadline, String description) {
        this.deadline = deadline;
        this.description = description;
    }

    /**
     * @return what the attempt answered, or busy for {@link #RETRY_AFTER_FAILURE_MILLIS} when it
     *         failed with time left
     * @throws LockException when it failed and the wait is over
     */
    AcquireReply run(Supplier<AcquireReply> attempt) {
        try {
            AcquireReply answer = attempt.get();
            failure = null;
            return answer;
        } catch (LockException e) {
            failedWithTimeLeft(e);
            return new AcquireReply.Busy(RETRY_AFTER_FAILURE_MILLIS, false);
        }
    }

    /**
     * Runs a step of the wait that answers nothing (a subscription), as an attempt.
     *
     * @return true when it succeeded; false when it failed with time left: ask again after
     *         {@link #RETRY_AFTER_FAILURE_MILLIS}
     * @throws LockException when it failed and the wait is over
     */
    boolean tried(Runnable step) {
        try {
            step.run();
            failure = null;
            return true;
        } catch (LockException e) {
            failedWithTimeLeft(e);
            return false;
        }
    }

    private void failedWithTimeLeft(LockException e) {
        if (deadline.hasPassed() || !RedisErrors.isTransient(e)) {
            throw e;
        }
        if (failure == null) {
            LOG.log(Level.WARNING, "Waiting for " + description + ": " + e.getMessage() + "; asking again every "
                    + RETRY_AFTER_FAILURE_MILLIS + " ms while the wait lasts");
        }
        failure = e;
    }

    boolean lastSucceeded() {
        return failure == null;
    }

    /**
     * @return null: the lock was not acquired in time
     * @throws LockException when the wait ended on a failed round trip, not on a busy lock
     */
    Hold endOfWait() {
        if (failure != null) {
            throw failure;
        }
        return null;
    }
}
