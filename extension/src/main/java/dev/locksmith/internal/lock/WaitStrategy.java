package dev.locksmith.internal.lock;

import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lock.kind.LockKind;
import dev.locksmith.internal.lock.kind.WaitStyle;
import dev.locksmith.internal.lock.local.Deadline;
import dev.locksmith.internal.lock.local.LocalContention;
import dev.locksmith.internal.lock.local.Waiting;
import dev.locksmith.internal.wire.AcquireReply;

/**
 * How a thread of this process waits for a lock of one kind, chosen once per kind
 * ({@link LockKind#waiting()}): in a line where only the first asks Redis ({@link LineWaiting}),
 * each on its own ({@link SoloWaiting}), or in Redis's fair queue ({@link QueueWaiting}).
 */
interface WaitStrategy {

    /**
     * @return the wait of that style
     */
    static WaitStrategy of(WaitStyle style) {
        return switch (style) {
            case IN_LINE -> LineWaiting.INSTANCE;
            case ALONE -> SoloWaiting.INSTANCE;
            case IN_QUEUE -> QueueWaiting.INSTANCE;
        };
    }

    /**
     * @return true when an acquisition may ask Redis once before setting up any waiting, if no
     *         thread here wants or holds the lock
     */
    boolean asksBeforeWaiting();

    /**
     * Waits for the lock, asking Redis when the strategy says so.
     *
     * @param acquisition the call that waits
     * @param contention  the threads of this process that want the lock
     * @param firstAnswer what an attempt just before answered, or null when none was made
     * @return the new hold, or null when the deadline passed first
     * @throws InterruptedException if {@code waiting} is interruptible and the thread was interrupted
     */
    Hold await(Acquisition acquisition, LocalContention contention, AcquireReply.Busy firstAnswer, Deadline deadline,
               Waiting waiting) throws InterruptedException;
}
