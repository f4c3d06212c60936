package dev.locksmith.internal.lock;

import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockScript;

/**
 * The fair lock: waiters queue in Redis in the order they asked, across all processes, and a
 * release wakes only the head of the queue. It shares its key with the non-fair lock of the
 * same name, so the two exclude each other (a non-fair acquirer does not queue, though).
 */
final class FairKind extends ExclusiveKind {
    static final FairKind INSTANCE = new FairKind();

    private FairKind() {
    }

    @Override
    String describe() {
        return "fair lock";
    }

    @Override
    ScriptCall acquisition(LockKeys keys, AcquireRequest request) {
        return LockScript.list("fair-acquire", new String[] {keys.lock(), keys.fence(), keys.queue(), keys.placePrefix()},
                request.owner(), Long.toString(request.leaseMillis()), Long.toString(request.sinceMillis()),
                request.threadName(), Long.toString(request.counterLifetimeMillis()),
                // A waiter keeps its place for a lease without asking again: only a dead one loses it.
                Long.toString(request.leaseMillis()));
    }

    @Override
    ScriptCall release(LockKeys keys, String owner, String requestId, long latchMillis, RingRelease offer) {
        return LockScript.integer("fair-release",
                new String[] {keys.lock(), keys.channel(), keys.latch(owner), keys.queue(), keys.placePrefix()},
                owner, Long.toString(latchMillis), keys.publish(), requestId);
    }

    @Override
    ScriptCall giveUp(LockKeys keys, String owner) {
        return LockScript.integer("fair-leave", new String[] {keys.lock(), keys.channel(), keys.queue(),
                keys.placePrefix()}, owner, keys.publish());
    }

    @Override
    boolean handsOver() {
        // The head of the queue in Redis is next, wherever it waits.
        return false;
    }

    @Override
    boolean offersToOtherProcesses() {
        return false; // the head of the queue is next, and Redis tells its process by name
    }

    @Override
    WaitStrategy waiting() {
        return QueueWaiting.INSTANCE;
    }
}
