package dev.locksmith.internal.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lock.local.Deadline;
import dev.locksmith.internal.lock.local.Waiting;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * What a multi-lock does to its parts together: one attempt at every part in one round trip,
 * taking one part the way its own lock waits, and releasing parts together, each failure kept.
 */
final class MultiLockParts {

    private MultiLockParts() {
    }

    /**
     * One attempt at every lock, all sent before any answer is awaited. Whatever was granted is
     * given back when one lock is busy.
     *
     * @return -1 when every lock is now held, else the index of a lock to wait for
     */
    static int tryAllAtOnce(List<DistributedLock> locks, long leaseMillis) {
        List<Acquisition> attempts = new ArrayList<>();
        for (DistributedLock lock : locks) {
            Acquisition attempt = lock instanceof RedisLock ours ? ours.firstAttempt(leaseMillis) : null;
            if (attempt == null) {
                return 0; // re-entry, or another implementation: the lock by lock way
            }
            attempts.add(attempt);
        }
        List<CompletionStage<List<Long>>> answers = new ArrayList<>();
        RuntimeException failure = null;
        try {
            for (Acquisition attempt : attempts) {
                answers.add(attempt.send());
            }
        } catch (RuntimeException e) {
            // The attempts sent before this one may be granted: they are settled below and
            // whatever they got is released before the failure is thrown.
            failure = e;
        }
        List<DistributedLock> granted = new ArrayList<>();
        int busy = -1;
        for (int i = 0; i < answers.size(); i++) {
            try {
                attempts.get(i).settle(answers.get(i));
                if (attempts.get(i).granted() != null) {
                    granted.add(locks.get(i));
                } else {
                    attempts.get(i).withdraw();
                    busy = busy < 0 ? i : busy;
                }
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure == null && busy < 0) {
            return -1;
        }
        if (failure != null) {
            releaseAfter(granted, failure);
            throw failure;
        }
        releaseAll(granted);
        return busy;
    }

    /**
     * Releases the parts taken before {@code failure}, which the caller is to hear about: a
     * failure of the release is added to it as suppressed.
     */
    static void releaseAfter(List<DistributedLock> taken, Throwable failure) {
        try {
            releaseAll(taken);
        } catch (RuntimeException releaseFailure) {
            failure.addSuppressed(releaseFailure);
        }
    }

    /**
     * A lock of this library waits the way this acquisition waits; any other {@code Lock} is asked
     * through its public methods.
     */
    static boolean take(DistributedLock lock, Deadline deadline, long lease, Waiting waiting)
            throws InterruptedException {
        if (lock instanceof LockFacade ours) {
            return ours.acquire(deadline, lease, waiting);
        }
        if (deadline.isInfinite() && lease == LockFacade.WATCHDOG) {
            lock.lockInterruptibly();
            return true;
        }
        long waitNanos = deadline.isInfinite() ? Long.MAX_VALUE : Math.max(0, deadline.remainingNanos());
        long leaseNanos = lease == LockFacade.WATCHDOG ? LockFacade.WATCHDOG : TimeUnit.MILLISECONDS.toNanos(lease);
        return lock.tryLock(waitNanos, leaseNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Releases every lock given, even when some fail, the way every release goes ({@link Release}):
     * all sent before any answer is awaited, and a part may pass straight to a thread of its own
     * process that waits for it. The first failure is thrown with the others suppressed.
     */
    static void releaseAll(List<DistributedLock> held) {
        List<RuntimeException> failures = new ArrayList<>();
        List<Release> pending = new ArrayList<>();
        for (DistributedLock lock : held) {
            try {
                Hold hold = lock instanceof RedisLock ours ? ours.currentHold() : null;
                if (hold == null) {
                    lock.unlock();
                } else {
                    pending.add(((RedisLock) lock).sendRelease(hold));
                }
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        for (Release release : pending) {
            try {
                release.settle();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) {
            failures.subList(1, failures.size()).forEach(failures.get(0)::addSuppressed);
            throw failures.get(0);
        }
    }
}
