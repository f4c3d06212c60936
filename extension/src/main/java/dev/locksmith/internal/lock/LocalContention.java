package dev.locksmith.internal.lock;

import dev.locksmith.internal.redis.ReleaseChannels;
import dev.locksmith.internal.redis.ReleaseChannels.Subscription;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The threads of this process that want one lock (one release channel). For most kinds they
 * wait in a line in arrival order and only the first asks Redis; fair-lock waiters each queue
 * in Redis instead, and readers each ask on their own. Release messages wake waiters: a message
 * {@code *} wakes everyone, a message naming an owner wakes that owner only.
 *
 * <p>A last release in this process may hand the lock straight to a sleeping waiter of the line
 * ({@link #claimNext()}), one round trip instead of a release, a wake-up and an acquisition. At
 * most {@link #HAND_OVERS_IN_A_ROW} hand-overs follow each other; then a release goes through
 * Redis, which leaves the lock to a waiter of another process first if one asked
 * ({@link #othersGoFirst()}).
 */
final class LocalContention {
    /** How many times in a row a lock passes between threads of this process without Redis releasing it. */
    static final int HAND_OVERS_IN_A_ROW = 8;
    private static final String EVERYONE = "*";

    private final String channel;
    private final ReentrantLock mutex = new ReentrantLock();
    private final Condition released = mutex.newCondition(); // waiters outside the line: readers, fair waiters
    private final Deque<LocalWaiter> line = new ArrayDeque<>();
    private final Set<String> queuedOwners = new HashSet<>();
    private final Set<String> addressed = new HashSet<>();
    private long wakeUps;
    private long generalWakeUps;
    private int handedInARow;
    private boolean othersFirst;
    private Subscription subscription;
    int users; // guarded by the ContentionRegistry's map

    LocalContention(String channel) {
        this.channel = channel;
    }

    String channel() {
        return channel;
    }

    /**
     * @return a waiter that may take a place in this line
     */
    LocalWaiter newWaiter(String owner, long leaseMillis, String threadName) {
        return new LocalWaiter(owner, leaseMillis, threadName, mutex.newCondition());
    }

    /**
     * Joins the end of the line and waits until this waiter is first (then it asks Redis), a
     * release here is handing it the lock, or the deadline passes.
     *
     * @return true when first or being handed the lock; false when the deadline passed first, and
     *         the waiter has left the line
     * @throws InterruptedException if {@code waiting} is interruptible and the thread was
     *                              interrupted before being handed the lock; it has left the line
     */
    boolean takePlace(LocalWaiter me, Deadline deadline, Waiting waiting) throws InterruptedException {
        mutex.lock();
        try {
            line.addLast(me);
            while (line.peekFirst() != me && !me.isClaimed()) {
                long left = deadline.remainingNanos();
                if (left <= 0) {
                    leave(me);
                    return false;
                }
                try {
                    park(me, left, waiting);
                } catch (InterruptedException e) {
                    leave(me);
                    throw e;
                }
            }
            return true;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Leaves the line, if still in it; the next waiter becomes first.
     */
    void leaveLine(LocalWaiter me) {
        mutex.lock();
        try {
            leave(me);
        } finally {
            mutex.unlock();
        }
    }

    long wakeUps() {
        mutex.lock();
        try {
            return wakeUps;
        } finally {
            mutex.unlock();
        }
    }

    long generalWakeUps() {
        mutex.lock();
        try {
            return generalWakeUps;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @param message {@code *} for everyone, or the owner id whose turn it is
     */
    void wake(String message) {
        mutex.lock();
        try {
            wakeUps++;
            if (EVERYONE.equals(message)) {
                generalWakeUps++;
            } else if (queuedOwners.contains(message)) {
                addressed.add(message);
            }
            released.signalAll();
            LocalWaiter first = line.peekFirst();
            if (first != null) {
                first.signal().signal();
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Waits until any wake-up has come since {@code seen} was read, the timeout, or (for a waiter
     * of the line) a release here is handing {@code me} the lock.
     *
     * @param me the first waiter of the line, or null for a waiter outside it (a reader)
     */
    void awaitWakeUp(long seen, long timeoutNanos, Waiting waiting, LocalWaiter me) throws InterruptedException {
        mutex.lock();
        try {
            long deadline = System.nanoTime() + timeoutNanos;
            long left = timeoutNanos;
            while (wakeUps == seen && left > 0 && (me == null || !me.isClaimed())) {
                if (me == null) {
                    waiting.await(released, left);
                } else {
                    park(me, left, waiting);
                }
                left = deadline - System.nanoTime();
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Claims a sleeping waiter of the line for a hand-over: it leaves the line and waits for
     * {@link #settle}. Called by the thread that releases the lock's last hold here.
     *
     * @return the claimed waiter, or null when none sleeps in the line or the lock was handed over
     *         {@link #HAND_OVERS_IN_A_ROW} times in a row (the release then goes through Redis)
     */
    LocalWaiter claimNext() {
        mutex.lock();
        try {
            LocalWaiter taker = null;
            for (LocalWaiter waiter : line) {
                if (waiter.isParked() && !waiter.isClaimed()) {
                    taker = waiter;
                    break;
                }
            }
            if (taker == null || handedInARow >= HAND_OVERS_IN_A_ROW) {
                othersFirst = taker != null;
                handedInARow = 0;
                return null;
            }
            handedInARow++;
            leave(taker);
            taker.claim();
            return taker;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return true, once, after {@link #claimNext()} found no waiter because the lock was handed
     *         over {@link #HAND_OVERS_IN_A_ROW} times in a row: the release should leave the lock to
     *         waiters of other processes first
     */
    boolean othersGoFirst() {
        mutex.lock();
        try {
            boolean due = othersFirst;
            othersFirst = false;
            return due;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Tells a claimed waiter how its hand-over ended, and wakes it.
     *
     * @param token  its fencing token, or 0 when it was not handed the lock
     * @param sentAt when the hand-over was sent, on the lease keeper's clock
     */
    void settle(LocalWaiter taker, long token, long sentAt) {
        mutex.lock();
        try {
            taker.settle(token, sentAt);
            taker.signal().signal();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Takes what a release here handed this waiter, waiting (through interrupts) for the release's
     * answer if it is still on its way. A hand-over that fell through puts the waiter back at the
     * front of the line, where it asks Redis itself.
     *
     * @return the waiter's fencing token when it holds the lock now (the hand-over time is
     *         {@link LocalWaiter#sentAt()}); 0 when it was claimed but not handed the lock; -1
     *         when it was not claimed
     */
    long receiveHandOver(LocalWaiter me) {
        mutex.lock();
        try {
            if (!me.isClaimed()) {
                return -1;
            }
            while (!me.isSettled()) {
                me.signal().awaitUninterruptibly();
            }
            long token = me.token();
            if (token <= 0) {
                me.unclaim();
                line.addFirst(me);
                return 0;
            }
            return token;
        } finally {
            mutex.unlock();
        }
    }

    void joinQueue(String owner) {
        mutex.lock();
        try {
            queuedOwners.add(owner);
        } finally {
            mutex.unlock();
        }
    }

    void leaveQueue(String owner) {
        mutex.lock();
        try {
            queuedOwners.remove(owner);
            addressed.remove(owner);
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Waits until a message names {@code owner}, a message wakes everyone (since {@code seenGeneral}
     * was read), or the timeout.
     */
    void awaitTurn(String owner, long seenGeneral, long timeoutNanos, Waiting waiting) throws InterruptedException {
        mutex.lock();
        try {
            long deadline = System.nanoTime() + timeoutNanos;
            long left = timeoutNanos;
            while (!addressed.remove(owner) && generalWakeUps == seenGeneral && left > 0) {
                waiting.await(released, left);
                left = deadline - System.nanoTime();
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @return completes when this process hears releases of the lock
     */
    CompletionStage<Void> listen(ReleaseChannels channels) {
        mutex.lock();
        try {
            if (subscription == null) {
                subscription = channels.subscribe(channel, this::wake);
            }
            return subscription.subscribed();
        } finally {
            mutex.unlock();
        }
    }

    void stopListening() {
        mutex.lock();
        try {
            if (subscription != null) {
                subscription.close();
                subscription = null;
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Sleeps where a hand-over can reach this waiter. Interrupted while a release here is already
     * handing it the lock, it keeps the interrupt status and returns, to take the lock.
     */
    private void park(LocalWaiter me, long nanos, Waiting waiting) throws InterruptedException {
        me.parked(true);
        try {
            waiting.await(me.signal(), nanos);
        } catch (InterruptedException e) {
            if (!me.isClaimed()) {
                throw e;
            }
            Thread.currentThread().interrupt();
        } finally {
            me.parked(false);
        }
    }

    private void leave(LocalWaiter me) {
        boolean wasFirst = line.peekFirst() == me;
        line.remove(me);
        LocalWaiter next = line.peekFirst();
        if (wasFirst && next != null) {
            next.signal().signal();
        }
    }
}
