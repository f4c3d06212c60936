package dev.locksmith.internal.lock;

import dev.locksmith.DistributedLock;
import dev.locksmith.DistributedMultiLock;
import dev.locksmith.internal.lock.local.Deadline;
import dev.locksmith.internal.lock.local.Waiting;
import dev.locksmith.internal.observe.CallContext;
import dev.locksmith.internal.observe.LockLabel;
import dev.locksmith.internal.observe.LockObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Several locks taken as one: all of them within the wait time, or none. It never waits for a
 * lock while holding another: it takes what it can without waiting, and when one is taken,
 * releases the rest and waits for that one alone. Two multi-locks over overlapping sets, taken
 * in opposite orders, therefore cannot deadlock.
 *
 * <p>The attempts at all the locks go out together and are answered in one round trip, as do
 * the releases: an uncontended cycle costs two round trips whatever the number of locks.
 *
 * <p>It is a {@link DistributedMultiLock}, and a {@link DistributedLock} only for callers of
 * {@code getMultiLock}, written when it had no type of its own: where a set of names has no
 * single answer, those methods say so ({@link #fencingToken()}) or answer what
 * {@code LockManager#getMultiLock} documents, nothing borrowed from one of its locks.
 */
final class MultiLock extends LockFacade implements DistributedMultiLock {
    private final List<DistributedLock> locks;
    private final String name;
    // The multi-lock's own reentrant count, per thread: its locks' counts also count the holds a
    // thread took of them alone, so no count of theirs is the multi-lock's.
    private final ThreadLocal<int[]> holds = ThreadLocal.withInitial(() -> new int[1]);

    MultiLock(List<DistributedLock> locks) {
        if (locks == null || locks.isEmpty()) {
            throw new IllegalArgumentException("A multi-lock needs at least one lock; got none");
        }
        for (int i = 0; i < locks.size(); i++) {
            if (locks.get(i) == null) {
                throw new IllegalArgumentException("Lock " + i + " of the multi-lock is null; pass locks from a LockManager");
            }
        }
        this.locks = locks.stream()
                .flatMap(lock -> lock instanceof MultiLock multi ? multi.locks.stream() : Stream.of(lock))
                .toList();
        this.name = this.locks.stream().map(DistributedLock::getName).collect(Collectors.joining(",", "multi[", "]"));
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public List<DistributedLock> locks() {
        return locks;
    }

    @Override
    LockObserver observer() {
        return locks.get(0) instanceof LockFacade ours ? ours.observer() : LockObserver.NONE;
    }

    @Override
    LockLabel label() {
        CallContext call = CallContext.current();
        return new LockLabel(name, "multi", call != null && call.template() != null ? call.template() : "multi");
    }

    @Override
    long grantedToken() {
        return -1;
    }

    @Override
    void enterCall() {
        List<LockFacade> entered = new ArrayList<>();
        try {
            for (DistributedLock lock : locks) {
                if (lock instanceof LockFacade ours) {
                    ours.enterCall();
                    entered.add(ours);
                }
            }
        } catch (RuntimeException e) {
            entered.forEach(LockFacade::exitCall);
            throw e;
        }
    }

    @Override
    void exitCall() {
        for (DistributedLock lock : locks) {
            if (lock instanceof LockFacade ours) {
                ours.exitCall();
            }
        }
    }

    @Override
    boolean managerOpen() {
        return locks.stream().allMatch(lock -> !(lock instanceof LockFacade ours) || ours.managerOpen());
    }

    @Override
    boolean acquire(Deadline deadline, long leaseMillis, Waiting waiting) throws InterruptedException {
        waiting.checkInterrupt();
        int waitFor = MultiLockParts.tryAllAtOnce(locks, leaseMillis);
        if (waitFor < 0) {
            return counted(allTaken(locks));
        }
        if (deadline.hasPassed()) {
            return false;
        }
        while (true) {
            DistributedLock first = locks.get(waitFor);
            if (!MultiLockParts.take(first, deadline, leaseMillis, waiting)) {
                return false;
            }
            List<DistributedLock> held = new ArrayList<>(List.of(first));
            int busy = -1;
            try {
                for (int i = 0; i < locks.size() && busy < 0; i++) {
                    if (i == waitFor) {
                        continue;
                    }
                    if (MultiLockParts.take(locks.get(i), Deadline.in(0), leaseMillis, waiting)) {
                        held.add(locks.get(i));
                    } else {
                        busy = i;
                    }
                }
            } catch (Throwable failure) {
                // A part failed (its manager closed, Redis refused, an interrupt): the parts taken
                // so far are nobody's once the caller hears "no", so they are released here.
                MultiLockParts.releaseAfter(held, failure);
                throw failure;
            }
            if (busy < 0) {
                return counted(allTaken(held));
            }
            MultiLockParts.releaseAll(held);
            if (deadline.hasPassed()) {
                return false;
            }
            waitFor = busy;
        }
    }

    private boolean counted(boolean acquired) {
        holds.get()[0]++;
        return acquired;
    }

    /**
     * Every part is held; unless the manager of one began to close meanwhile. Its close releases
     * that part, and the caller is told the manager closed; the parts of the managers still open
     * would then be nobody's, so they are released here before the caller hears it.
     *
     * @return true
     * @throws IllegalStateException if the manager of a part closed while the parts were taken
     */
    private boolean allTaken(List<DistributedLock> held) {
        if (managerOpen()) {
            return true;
        }
        List<DistributedLock> stillOpen = held.stream()
                .filter(lock -> !(lock instanceof LockFacade ours) || ours.managerOpen()).toList();
        IllegalStateException closed = new IllegalStateException("The LockManager of a part of the " + describe()
                + " closed while it was being acquired; its close released that part, and the other parts were"
                + " released too");
        MultiLockParts.releaseAfter(stillOpen, closed);
        throw closed;
    }

    @Override
    public void unlock() {
        int[] held = holds.get();
        if (held[0] > 0) {
            held[0]--;
        }
        List<DistributedLock> reversed = new ArrayList<>(locks);
        Collections.reverse(reversed);
        MultiLockParts.releaseAll(reversed);
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
     * @return true if any of its locks is held, by any thread in any JVM: while it is, taking all of
     *         them would have to wait (unless the current thread holds them)
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

    /**
     * @return the multi-lock's own reentrant count while the current thread still holds each of
     *         its locks, else 0
     */
    @Override
    public int getHoldCount() {
        int[] count = holds.get();
        if (count[0] > 0 && locks.stream().anyMatch(lock -> lock.getHoldCount() == 0)) {
            count[0] = 0; // a lock's hold is gone (lost, forced, or the grant was undone by a close)
        }
        return count[0];
    }

    @Override
    public Duration remainingLease() {
        return locks.stream().map(DistributedLock::remainingLease).min(Duration::compareTo).orElse(Duration.ZERO);
    }

    @Override
    public List<Long> fencingTokens() {
        return locks.stream().map(DistributedLock::fencingToken).toList();
    }

    /**
     * @throws UnsupportedOperationException always: each of its locks has a token of its own
     */
    @Override
    public long fencingToken() {
        throw new UnsupportedOperationException("The " + name + " has no fencing token of its own: each of its locks"
                + " has one. Use DistributedMultiLock#fencingTokens() (LockManager#getMultiLockOf returns the"
                + " multi-lock with that type), or each lock's own fencingToken()");
    }

    @Override
    String describe() {
        return name;
    }
}
