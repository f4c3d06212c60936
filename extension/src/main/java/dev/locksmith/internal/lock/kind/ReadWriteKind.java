package dev.locksmith.internal.lock.kind;

import dev.locksmith.internal.lease.LeaseKeeper;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.internal.store.LockStore;
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
    private final String fieldPrefix;

    private ReadWriteKind(boolean read) {
        this.read = read;
        this.fieldPrefix = read ? "r:" : "w:";
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
        return fieldPrefix + owner;
    }

    @Override
    public String expiryField(String owner) {
        return "e:" + owner;
    }

    @Override
    public ScriptCall acquisition(LockKeys keys, AcquireRequest request) {
        return LockScript.list(read ? "acquire-read" : "acquire-write", new String[] {keys.lock(), keys.fence()},
                request.owner(), Long.toString(request.leaseMillis()), Long.toString(request.counterLifetimeMillis()),
                Long.toString(request.sinceMillis()), request.threadName(), request.joinsRing() ? "1" : "");
    }

    /**
     * An offer of the write lock records when it was made by this process's clock, which
     * {@code describe} shows: the script asking Redis for its time would cost every write hand-off
     * a command.
     */
    @Override
    public ScriptCall release(LockKeys keys, String owner, String requestId, long latchMillis, RingRelease offer) {
        return LockScript.integer(read ? "release-read" : "release-write",
                new String[] {keys.lock(), keys.channel(), keys.latch(owner)}, owner, Long.toString(latchMillis),
                keys.publish(), requestId, offer.offers() ? "1" : "", !read && offer.staysInRing() ? "1" : "",
                Long.toString(System.currentTimeMillis()));
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
        return LockScript.integer("rw-hold", new String[] {keys.lock()}, holdField(owner), expiryField(owner),
                Long.toString(leaseMillis));
    }

    @Override
    public ScriptCall giveUp(LockKeys keys, String owner) {
        // A reader leaves no trace while it waits; a writer leaves its waiting mark.
        return read ? null
                : LockScript.integer("give-up-write", new String[] {keys.lock(), keys.channel()}, owner, keys.publish());
    }

    @Override
    public WaitStyle waiting() {
        return read ? WaitStyle.ALONE : WaitStyle.IN_LINE;
    }

    @Override
    public CompletionStage<Boolean> isLocked(LockStore store, LockKeys keys) {
        return store.hashFields(keys.lock()).thenApply(fields -> fields.stream().anyMatch(f -> f.startsWith(fieldPrefix)));
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
