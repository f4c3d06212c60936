package dev.locksmith.internal.lock.kind;

import dev.locksmith.internal.lease.LeaseKeeper;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.internal.store.LockStore;
import dev.locksmith.internal.wire.ReadWriteField;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * One side of the read/write lock. Both sides live in one hash; each owner's holds carry their
 * own expiry, so a dead reader keeps writers out for one lease at most. Readers never take turns
 * inside a process: each asks Redis on its own, so readers of one name hold together.
 */
public final class ReadWriteKind extends LockKind {
    public static final ReadWriteKind READ = new ReadWriteKind(true);
    public static final ReadWriteKind WRITE = new ReadWriteKind(false);

    private final boolean read;

    private ReadWriteKind(boolean read) {
        this.read = read;
    }

    @Override
    public String describe() {
        return read ? "read lock" : "write lock";
    }

    @Override
    public LockKeys keys(String prefix, String name) {
        return LockKeys.of(prefix, name).readWrite();
    }

    @Override
    public String holdField(String owner) {
        return ReadWriteField.hold(read, owner).text();
    }

    @Override
    public String expiryField(String owner) {
        return ReadWriteField.expiry(owner).text();
    }

    @Override
    public ScriptCall acquisition(LockKeys keys, AcquireRequest request) {
        return LockScript.call(read ? "acquire-read" : "acquire-write").key("lock", keys.lock())
                .key("fence", keys.fence()).arg("owner", request.owner()).arg("lease", request.leaseMillis())
                .arg("fence-life", request.counterLifetimeMillis()).arg("since", request.sinceMillis())
                .arg("thread", request.threadName()).flag("join-ring", request.joinsRing()).list();
    }

    /**
     * An offer of the write lock records when it was made by this process's clock, which
     * {@code describe} shows: the script asking Redis for its time would cost every write hand-off
     * a command.
     */
    @Override
    public ScriptCall release(LockKeys keys, String owner, String requestId, long latchMillis, RingRelease offer) {
        return LockScript.call(read ? "release-read" : "release-write").key("lock", keys.lock())
                .key("channel", keys.channel()).key("latch", keys.latch(owner)).arg("owner", owner)
                .arg("latch-life", latchMillis).arg("publish", keys.publish()).arg("request", requestId)
                .flag("offers", offer.offers()).flag("stay-in-ring", !read && offer.staysInRing())
                .arg("now", System.currentTimeMillis()).integer();
    }

    /**
     * Writers of other processes wait in a ring, and the release that frees the lock (of either
     * side) offers it to the first of them; readers are woken by '*' as before.
     */
    @Override
    public boolean offersToOtherProcesses() {
        return true;
    }

    @Override
    public ScriptCall holdCount(LockKeys keys, String owner, int count, long leaseMillis) {
        if (leaseMillis <= 0) {
            return null;
        }
        return LockScript.call("rw-hold").key("lock", keys.lock()).arg("hold", holdField(owner))
                .arg("expiry", expiryField(owner)).arg("lease", leaseMillis).integer();
    }

    @Override
    public ScriptCall giveUp(LockKeys keys, String owner) {
        // A reader leaves no trace while it waits; a writer leaves its waiting mark.
        return read ? null
                : LockScript.call("give-up-write").key("lock", keys.lock()).key("channel", keys.channel())
                        .arg("owner", owner).arg("publish", keys.publish()).integer();
    }

    @Override
    public WaitStyle waiting() {
        return read ? WaitStyle.ALONE : WaitStyle.IN_LINE;
    }

    @Override
    public CompletionStage<Boolean> isLocked(LockStore store, LockKeys keys) {
        ReadWriteField.Kind side = ReadWriteField.hold(read, "").kind();
        return store.hashFields(keys.lock()).thenApply(fields -> fields.stream().map(ReadWriteField::parse)
                .flatMap(Optional::stream).anyMatch(field -> field.kind() == side));
    }

    @Override
    public CompletionStage<Boolean> isHeldBy(LockStore store, LockKeys keys, String owner) {
        return store.hashFields(keys.lock()).thenApply(fields -> fields.contains(holdField(owner)));
    }

    @Override
    public void checkMayAcquire(LeaseKeeper leases, LockKeys keys, String owner, String name) {
        if (!read && leases.find(keys.lock(), READ.holdField(owner)) != null
                && leases.find(keys.lock(), holdField(owner)) == null) {
            throw new IllegalMonitorStateException("This thread holds the read lock of '" + name + "' and asks for its"
                    + " write lock, which would wait for itself forever. Release the read lock first, or take the"
                    + " write lock first (a writer may also read).");
        }
    }
}
