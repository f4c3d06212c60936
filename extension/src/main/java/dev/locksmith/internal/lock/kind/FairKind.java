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
        return LockScript.call("fair-acquire").key("lock", keys.lock()).key("fence", keys.fence())
                .key("queue", keys.queue()).key("places", keys.placePrefix()).arg("owner", request.owner())
                .arg("lease", request.leaseMillis()).arg("since", request.sinceMillis())
                .arg("thread", request.threadName()).arg("fence-life", request.counterLifetimeMillis())
                // A waiter keeps its place for a lease without asking again: only a dead one loses it.
                .arg("patience", request.leaseMillis()).list();
    }

    @Override
    public ScriptCall release(LockKeys keys, String owner, String requestId, long latchMillis, RingRelease offer) {
        return LockScript.call("fair-release").key("lock", keys.lock()).key("channel", keys.channel())
                .key("latch", keys.latch(owner)).key("queue", keys.queue()).key("places", keys.placePrefix())
                .arg("owner", owner).arg("latch-life", latchMillis).arg("publish", keys.publish())
                .arg("request", requestId).integer();
    }

    @Override
    public ScriptCall giveUp(LockKeys keys, String owner) {
        return LockScript.call("fair-leave").key("lock", keys.lock()).key("channel", keys.channel())
                .key("queue", keys.queue()).key("places", keys.placePrefix()).arg("owner", owner)
                .arg("publish", keys.publish()).integer();
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
