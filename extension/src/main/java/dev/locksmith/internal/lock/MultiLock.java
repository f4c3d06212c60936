package dev.locksmith.internal.lock;

import dev.locksmith.DistributedLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Several locks taken as one: all of them within the wait time, or none. It never waits for a
 * lock while holding another: it takes what it can without waiting, and when one is taken,
 * releases the rest and waits for that one alone. Two multi-locks over overlapping sets, taken
 * in opposite orders, therefore cannot deadlock.
 */
final class MultiLock extends LockFacade {
    private final List<DistributedLock> locks;
    private final String name;

    MultiLock(List<DistributedLock> locks) {
        if (locks == null || locks.isEmpty()) {
            throw new IllegalArgumentException("A multi-lock needs at least one lock; got none");
        }
        for (int i = 0; i < locks.size(); i++) {
            if (locks.get(i) == null) {
                throw new IllegalArgumentException("Lock " + i + " of the multi-lock is null; pass locks from a LockManager");
            }
        }
        this.locks = List.copyOf(locks);
        this.name = this.locks.stream().map(DistributedLock::getName).collect(Collectors.joining(",", "multi[", "]"));
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    boolean acquire(Deadline deadline, long leaseMillis, Waiting waiting) throws InterruptedException {
        waiting.checkInterrupt();
        int waitFor = 0;
        while (true) {
            DistributedLock first = locks.get(waitFor);
            if (!take(first, deadline, leaseMillis, waiting)) {
                return false;
            }
            List<DistributedLock> held = new ArrayList<>(List.of(first));
            int busy = -1;
            for (int i = 0; i < locks.size() && busy < 0; i++) {
                if (i == waitFor) {
                    continue;
                }
                if (take(locks.get(i), Deadline.in(0), leaseMillis, waiting)) {
                    held.add(locks.get(i));
                } else {
                    busy = i;
                }
            }
            if (busy < 0) {
                return true;
            }
            releaseAll(held);
            if (deadline.hasPassed()) {
                return false;
            }
            waitFor = busy;
        }
    }

    /**
     * A lock of this library waits the way this acquisition waits; any other {@code Lock} is asked
     * through its public methods.
     */
    private static boolean take(DistributedLock lock, Deadline deadline, long lease, Waiting waiting)
            throws InterruptedException {
        if (lock instanceof LockFacade ours) {
            return ours.acquire(deadline, lease, waiting);
        }
        if (deadline.isInfinite() && lease == WATCHDOG) {
            lock.lockInterruptibly();
            return true;
        }
        long waitNanos = deadline.isInfinite() ? Long.MAX_VALUE : Math.max(0, deadline.remainingNanos());
        long leaseNanos = lease == WATCHDOG ? WATCHDOG : TimeUnit.MILLISECONDS.toNanos(lease);
        return lock.tryLock(waitNanos, leaseNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void unlock() {
        List<DistributedLock> reversed = new ArrayList<>(locks);
        Collections.reverse(reversed);
        releaseAll(reversed);
    }

    /**
     * Releases every lock given, even when some fail; the first failure is thrown with the
     * others suppressed.
     */
    private static void releaseAll(List<DistributedLock> held) {
        RuntimeException failure = null;
        for (DistributedLock lock : held) {
            try {
                lock.unlock();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public boolean forceUnlock() {
        boolean removed = false;
        for (DistributedLock lock : locks) {
            removed |= lock.forceUnlock();
        }
        return removed;
    }

    /**
     * @return true if any of the locks is held, so that taking all of them would have to wait
     */
    @Override
    public boolean isLocked() {
        return locks.stream().anyMatch(DistributedLock::isLocked);
    }

    /**
     * @return true if the current thread holds every one of the locks
     */
    @Override
    public boolean isHeldByCurrentThread() {
        return locks.stream().allMatch(DistributedLock::isHeldByCurrentThread);
    }

    @Override
    public int getHoldCount() {
        return locks.stream().mapToInt(DistributedLock::getHoldCount).min().orElse(0);
    }

    @Override
    public Duration remainingLease() {
        return locks.stream().map(DistributedLock::remainingLease).min(Duration::compareTo).orElse(Duration.ZERO);
    }

    /**
     * @return the token of the first lock, which is taken afresh by every acquisition of the
     *         multi-lock and so increases strictly; use each lock's own token to fence its resource
     */
    @Override
    public long fencingToken() {
        return locks.get(0).fencingToken();
    }

    @Override
    String describe() {
        return name;
    }
}
