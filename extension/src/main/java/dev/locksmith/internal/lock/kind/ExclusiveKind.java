package dev.locksmith.internal.lock.kind;

import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.internal.store.LockStore;
import java.util.concurrent.CompletionStage;

/**
 * The reentrant, non-fair lock: whoever asks first after a release gets it. Its key holds the
 * owner, the fencing token, the hold count, since when and which thread holds it.
 */
public class ExclusiveKind extends LockKind {
    public static final ExclusiveKind INSTANCE = new ExclusiveKind();
    ExclusiveKind() {
    }

    @Override
    public String describe() {
        return "lock";
    }

    @Override
    public LockKeys keys(String prefix, String name) {
        return LockKeys.of(prefix, name);
    }

    @Override
    public ScriptCall acquisition(LockKeys keys, AcquireRequest request) {
        return LockScript.list("acquire", new String[] {keys.lock(), keys.fence()}, request.owner(),
                Long.toString(request.leaseMillis()), Long.toString(request.sinceMillis()), request.threadName(),
                Long.toString(request.counterLifetimeMillis()), request.joinsRing() ? "1" : "");
    }

    @Override
    public ScriptCall release(LockKeys keys, String owner, String requestId, long latchMillis, RingRelease offer) {
        return LockScript.integer("release", new String[] {keys.lock(), keys.channel(), keys.latch(owner)}, owner,
                Long.toString(latchMillis), keys.publish(), requestId,
                offer.offers() ? Long.toString(offer.reserveMillis()) : "", offer.staysInRing() ? "1" : "",
                Long.toString(System.currentTimeMillis()));
    }

    @Override
    public final ScriptCall keep(LockKeys keys, String owner, String requestId, long latchMillis, long keepMillis) {
        return LockScript.integer("keep", new String[] {keys.lock(), keys.channel(), keys.latch(owner), keys.queue(),
                keys.placePrefix()}, owner,
                Long.toString(latchMillis), Long.toString(keepMillis), requestId, keys.publish());
    }

    @Override
    public boolean offersToOtherProcesses() {
        return true;
    }

    @Override
    public boolean handsOver() {
        return true;
    }

    @Override
    public WaitStyle waiting() {
        return WaitStyle.IN_LINE;
    }

    @Override
    public ScriptCall handOver(LockKeys keys, String owner, AcquireRequest taker, String requestId, long latchMillis) {
        return LockScript.integer("hand-over", new String[] {keys.lock(), keys.fence(), keys.latch(owner)}, owner,
                taker.owner(), Long.toString(taker.leaseMillis()), Long.toString(taker.sinceMillis()),
                taker.threadName(), Long.toString(taker.counterLifetimeMillis()), Long.toString(latchMillis),
                requestId);
    }

    @Override
    public final ScriptCall holdCount(LockKeys keys, String owner, int count, long leaseMillis) {
        return LockScript.integer("hold-count", new String[] {keys.lock()}, owner, Integer.toString(count),
                leaseMillis > 0 ? Long.toString(leaseMillis) : "");
    }

    @Override
    public final CompletionStage<Boolean> isLocked(LockStore store, LockKeys keys) {
        // 'r': nobody holds it; it is offered to a waiting process.
        return store.value(keys.lock()).thenApply(value -> value != null && value.charAt(0) != 'r');
    }

    @Override
    public final CompletionStage<Boolean> isHeldBy(LockStore store, LockKeys keys, String owner) {
        // 'k': kept after its holder's last release until its minimum hold passed; nobody's.
        return store.value(keys.lock()).thenApply(value -> value != null && value.charAt(0) != 'k'
                && value.startsWith(owner + "|", 1));
    }
}
