package dev.locksmith.internal.lock.kind;

import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.internal.store.LockStore;
import dev.locksmith.internal.wire.ExclusiveValue;
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
        return LockScript.call("acquire").key("lock", keys.lock()).key("fence", keys.fence())
                .arg("owner", request.owner()).arg("lease", request.leaseMillis()).arg("since", request.sinceMillis())
                .arg("thread", request.threadName()).arg("fence-life", request.counterLifetimeMillis())
                .arg("join-ring", request.ringArgument()).list();
    }

    @Override
    public ScriptCall release(LockKeys keys, String owner, String requestId, long latchMillis, RingRelease offer) {
        return LockScript.call("release").key("lock", keys.lock()).key("channel", keys.channel())
                .key("latch", keys.latch(owner)).key("fence", keys.fence()).arg("owner", owner)
                .arg("latch-life", latchMillis).arg("publish", keys.publish()).arg("request", requestId)
                .arg("reserve", offer.offers() ? Long.toString(offer.reserveMillis()) : "")
                .flag("stay-in-ring", offer.staysInRing()).arg("now", System.currentTimeMillis())
                .arg("patience", offer.patienceMillis())
                .arg("fence-life", offer.counterLifetimeMillis())
                .arg("grant", offer.grantOnItsWord() == RingRelease.CONFIRMED ? "" : Long.toString(offer.grantOnItsWord()))
                .integer();
    }

    @Override
    public ScriptCall takeGrant(LockKeys keys, AcquireRequest request, long grant) {
        return LockScript.call("take-grant").key("lock", keys.lock()).arg("owner", request.owner())
                .arg("lease", request.leaseMillis()).arg("since", request.sinceMillis())
                .arg("thread", request.threadName()).arg("grant", grant).list();
    }

    @Override
    public final ScriptCall keep(LockKeys keys, String owner, String requestId, long latchMillis, long keepMillis) {
        return LockScript.call("keep").key("lock", keys.lock()).key("channel", keys.channel())
                .key("latch", keys.latch(owner)).key("queue", keys.queue()).key("places", keys.placePrefix())
                .arg("owner", owner).arg("latch-life", latchMillis).arg("keep", keepMillis).arg("request", requestId)
                .arg("publish", keys.publish()).integer();
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
        return LockScript.call("hand-over").key("lock", keys.lock()).key("fence", keys.fence())
                .key("latch", keys.latch(owner)).arg("owner", owner).arg("taker", taker.owner())
                .arg("taker-lease", taker.leaseMillis()).arg("taker-since", taker.sinceMillis())
                .arg("taker-thread", taker.threadName()).arg("fence-life", taker.counterLifetimeMillis())
                .arg("latch-life", latchMillis).arg("request", requestId).integer();
    }

    @Override
    public final ScriptCall holdCount(LockKeys keys, String owner, int count, long leaseMillis) {
        return LockScript.call("hold-count").key("lock", keys.lock()).arg("owner", owner).arg("count", count)
                .arg("lease", leaseMillis > 0 ? Long.toString(leaseMillis) : "").integer();
    }

    @Override
    public final CompletionStage<Boolean> isLocked(LockStore store, LockKeys keys) {
        // A value of a form this version cannot read (another version wrote it) is someone's.
        return store.value(keys.lock()).thenApply(value -> value != null
                && ExclusiveValue.parse(value).map(ExclusiveValue::taken).orElse(true));
    }

    @Override
    public final CompletionStage<Boolean> isHeldBy(LockStore store, LockKeys keys, String owner) {
        return store.value(keys.lock()).thenApply(value -> value != null
                && ExclusiveValue.parse(value).filter(held -> held.heldBy(owner)).isPresent());
    }
}
