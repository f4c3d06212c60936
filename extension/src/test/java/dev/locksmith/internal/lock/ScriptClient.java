package dev.locksmith.internal.lock;

import dev.locksmith.internal.lock.kind.AcquireRequest;
import dev.locksmith.internal.lock.kind.ExclusiveKind;
import dev.locksmith.internal.lock.kind.FairKind;
import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.lock.kind.LockKind;
import dev.locksmith.internal.lock.kind.ReadWriteKind;
import dev.locksmith.internal.lock.kind.RingRelease;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.redis.ScriptRunner;
import dev.locksmith.internal.store.LockScript;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the reentrant and the fair lock's scripts directly, as owners the test names, so that a test can send
 * what a client would send twice, or as two processes: owner ids are {@code <manager>:<thread>}.
 */
final class ScriptClient implements AutoCloseable {
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final ScriptRunner scripts;

    ScriptClient(String uri) {
        this.client = RedisClient.create(uri);
        this.connection = client.connect();
        this.scripts = new ScriptRunner(connection.async());
    }

    /**
     * @return {1, fencing token} when acquired, {0, ms to wait} when not
     */
    List<Long> acquire(LockKeys keys, String owner) throws Exception {
        return acquire(keys, owner, false);
    }

    /**
     * @param joinsRing whether the owner's process joins the ring when the lock is taken
     * @return {1, fencing token} when acquired, {0, ms to wait[, 1 when in the ring]} when not
     */
    List<Long> acquire(LockKeys keys, String owner, boolean joinsRing) throws Exception {
        return acquire(ExclusiveKind.INSTANCE, keys, owner, joinsRing);
    }

    /**
     * @param kind the lock's kind, such as {@link ReadWriteKind#WRITE}
     * @return as the kind's acquisition script answers
     */
    List<Long> acquire(LockKind kind, LockKeys keys, String owner, boolean joinsRing) throws Exception {
        return run(kind.acquisition(keys,
                new AcquireRequest(owner, 30_000, System.currentTimeMillis(), "t", 86_400_000, joinsRing)));
    }

    /**
     * @return what {@link #acquire(LockKeys, String, boolean)} returns, joining the ring and taking
     *         a grant to the owner's process (its process holds none on the grant's word)
     */
    List<Long> acquireTakingGrant(LockKeys keys, String owner) throws Exception {
        return acquireTakingGrant(keys, owner, true);
    }

    /**
     * @param joinsRing whether the owner's process joins the ring when the lock is taken
     * @return what {@link #acquire(LockKeys, String, boolean)} returns, taking a grant to the
     *         owner's process (its process holds none on the grant's word)
     */
    List<Long> acquireTakingGrant(LockKeys keys, String owner, boolean joinsRing) throws Exception {
        return run(ExclusiveKind.INSTANCE.acquisition(keys,
                new AcquireRequest(owner, 30_000, System.currentTimeMillis(), "t", 86_400_000, joinsRing, true)));
    }

    /**
     * @return 0 when released, -1 when the owner held nothing
     */
    long release(LockKeys keys, String owner, String requestId) throws Exception {
        return release(keys, owner, requestId, RingRelease.NONE);
    }

    /**
     * @return 0 when released, 1 when offered to a waiting process, -1 when the owner held nothing
     */
    long release(LockKeys keys, String owner, String requestId, RingRelease offer) throws Exception {
        return release(ExclusiveKind.INSTANCE, keys, owner, requestId, offer);
    }

    /**
     * @param kind the lock's kind, such as {@link ReadWriteKind#WRITE}
     * @return as the kind's release script answers
     */
    long release(LockKind kind, LockKeys keys, String owner, String requestId, RingRelease offer) throws Exception {
        return run(kind.release(keys, owner, requestId, 5000, offer));
    }

    /**
     * @param kind the lock's kind, such as {@link ReadWriteKind#WRITE}
     * @return 1 when the owner was waiting, 0 when it was not
     */
    long giveUp(LockKind kind, LockKeys keys, String owner) throws Exception {
        return run(kind.giveUp(keys, owner));
    }

    /**
     * Withdraws an offer as a closing releaser does; a grant made with no patience may be withdrawn at once.
     *
     * @param keys the reentrant lock's keys, or the read/write lock's
     * @return -1 (see {@code pass-offer}: withdrawn, or none of that token stood), or -2 - ms while a
     *         grant's patience runs
     */
    long withdrawOffer(LockKeys keys, String token) throws Exception {
        return run(passOn(keys, token, "", "", true, 0));
    }

    /**
     * Passes an offer on, as a grant of no patience.
     *
     * @param keys the reentrant lock's keys ({@code pass-offer}), or the read/write lock's ({@code rw-pass-offer})
     * @return the number of the offer of that token standing afterwards, -1, or -2 - ms while a
     *         grant's patience runs (see {@code pass-offer})
     */
    long passOffer(LockKeys keys, String token, String number, String target) throws Exception {
        return passOffer(keys, token, number, target, 0);
    }

    /**
     * @param patienceMillis the patience of the grant it is passed on as
     */
    long passOffer(LockKeys keys, String token, String number, String target, long patienceMillis) throws Exception {
        return run(passOn(keys, token, number, target, false, patienceMillis));
    }

    private static ScriptCall passOn(LockKeys keys, String token, String number, String target, boolean withdraw,
                                     long patienceMillis) {
        if (keys.isReadWrite()) {
            return LockScript.call("rw-pass-offer").key("lock", keys.lock()).key("channel", keys.channel())
                    .arg("token", token).arg("number", number).arg("offered-to", target).arg("publish", "publish")
                    .arg("reserve", 30_000).arg("only-if-gone", "").arg("now", System.currentTimeMillis())
                    .flag("withdraw", withdraw).integer();
        }
        return LockScript.call("pass-offer").key("lock", keys.lock()).key("channel", keys.channel())
                .key("fence", keys.fence()).arg("token", token).arg("number", number).arg("offered-to", target)
                .arg("publish", "publish").arg("reserve", 30_000).arg("only-if-gone", "")
                .arg("now", System.currentTimeMillis()).arg("patience", patienceMillis).flag("withdraw", withdraw)
                .arg("fence-life", 86_400_000).integer();
    }

    /**
     * @return {1, fencing token} when the owner took the grant, {0, ms} when it is gone
     */
    List<Long> takeGrant(LockKeys keys, String owner, long grant) throws Exception {
        return run(ExclusiveKind.INSTANCE.takeGrant(keys,
                new AcquireRequest(owner, 30_000, System.currentTimeMillis(), "t", 86_400_000, false), grant));
    }

    /**
     * @return 0 when kept for {@code keepMillis}, -1 when the owner held nothing
     */
    long keep(LockKeys keys, String owner, String requestId, long keepMillis) throws Exception {
        return run(ExclusiveKind.INSTANCE.keep(keys, owner, requestId, 5000, keepMillis));
    }

    /**
     * @return the taker's fencing token, or -1 when the owner held nothing
     */
    long handOver(LockKeys keys, String owner, String taker, String requestId) throws Exception {
        AcquireRequest request = new AcquireRequest(taker, 30_000, System.currentTimeMillis(), "taker", 86_400_000,
                false);
        return run(ExclusiveKind.INSTANCE.handOver(keys, owner, request, requestId, 5000));
    }

    /**
     * @return {1, fencing token} when acquired, {0, ms to wait} when queued
     */
    List<Long> fairAcquire(LockKeys keys, String owner) throws Exception {
        return run(FairKind.INSTANCE.acquisition(keys,
                new AcquireRequest(owner, 30_000, System.currentTimeMillis(), "t", 86_400_000, false)));
    }

    /**
     * @return 0 when released, -1 when the owner held nothing
     */
    long fairRelease(LockKeys keys, String owner, String requestId) throws Exception {
        return run(FairKind.INSTANCE.release(keys, owner, requestId, 5000, RingRelease.NONE));
    }

    /**
     * @return 1 when the owner was queued, 0 when it was not
     */
    long fairLeave(LockKeys keys, String owner) throws Exception {
        return run(FairKind.INSTANCE.giveUp(keys, owner));
    }

    RedisCommands<String, String> redis() {
        return connection.sync();
    }

    private <T> T run(ScriptCall call) throws Exception {
        return call.<T>runOn(scripts).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
