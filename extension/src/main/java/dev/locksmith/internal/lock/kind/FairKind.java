package dev.locksmith.internal.lock.kind;

import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockScript;

/**
 * The fair lock: waiters queue in Redis in the order they asked, across all processes, and a
 * release wakes only the head of the queue. It shares its key with the non-fair lock of the
 * same name, so the two exclude each other (a non-fair acquirer does not queue, though).
 */
public final class FairKind extends ExclusiveKind {
    public static final FairKind INSTANCE = new FairKind();

    private FairKind() {
    }

    @Override
    public String describe() {
        return "fair lock";
    }

    @Override
    public ScriptCall acquisition(LockKeys keys, AcquireRequest request) {
        return LockScript.list("fair-acquire", new String[] {keys.lock(), keys.fence(), keys.queue(), keys.placePrefix()},
                request.owner(), Long.toString(request.leaseMillis()), Long.toString(request.sinceMillis()),
                request.threadName(), Long.toString(request.counterLifetimeMillis()),
                // A waiter keeps its place for a lease without asking again: only a dead one loses it.
                Long.toString(request.leaseMillis()));
    }

    @Override
    public ScriptCall release(LockKeys keys, String owner, String requestId, long latchMillis, RingRelease offer) {
        return LockScript.integer("fair-release",
                new String[] {keys.lock(), keys.channel(), keys.latch(owner), keys.queue(), keys.placePrefix()},
                owner, Long.toString(latchMillis), keys.publish(), requestId);
    }

    @Override
    public ScriptCall giveUp(LockKeys keys, String owner) {
        return LockScript.integer("fair-leave", new String[] {keys.lock(), keys.channel(), keys.queue(),
                keys.placePrefix()}, owner, keys.publish());
    }

    @Override
    public boolean handsOver() {
        // The head of the queue in Redis is next, wherever it waits.
        return false;
    }

    @Override
    public boolean offersToOtherProcesses() {
        return false; // the head of the queue is next, and Redis tells its process by name
    }

    @Override
    public WaitStyle waiting() {
        return WaitStyle.IN_QUEUE;
    }
}
