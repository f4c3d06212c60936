package dev.locksmith.internal.lock;

import dev.locksmith.internal.lease.LeaseKeeper;
import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.ScriptCall;
import java.util.List;

/**
 * One side of the read/write lock. Both sides live in one hash; each owner's holds carry their
 * own expiry, so a dead reader keeps writers out for one lease at most.
 */
final class ReadWriteKind extends LockKind {
    static final ReadWriteKind READ = new ReadWriteKind(true);
    static final ReadWriteKind WRITE = new ReadWriteKind(false);

    private static final LuaScript SCRIPT = LuaScript.load("read-write");
    // Acquisitions write no latch; the prefix stands in for KEYS[4] because it lies in the lock's
    // hash slot, which a cluster requires of every key a script names.

    private final boolean read;
    private final String fieldPrefix;

    private ReadWriteKind(boolean read) {
        this.read = read;
        this.fieldPrefix = read ? "r:" : "w:";
    }

    @Override
    String describe() {
        return read ? "read lock" : "write lock";
    }

    @Override
    LockKeys keys(String prefix, String name) {
        return LockKeys.of(prefix, name).readWrite();
    }

    @Override
    String holdField(String owner) {
        return fieldPrefix + owner;
    }

    @Override
    String expiryField(String owner) {
        return "e:" + owner;
    }

    @Override
    ScriptCall acquisition(LockKeys keys, String owner, long leaseMillis, long patience) {
        return ScriptCall.list(SCRIPT, new String[] {keys.hash(), keys.fence(), keys.channel(), keys.latchPrefix()},
                read ? "acquire-read" : "acquire-write", owner, Long.toString(leaseMillis));
    }

    @Override
    ScriptCall release(LockKeys keys, String owner, long leaseMillis, String latchKey, long latchMillis) {
        return ScriptCall.integer(SCRIPT,
                new String[] {keys.hash(), keys.fence(), keys.channel(), latchKey},
                read ? "release-read" : "release-write", owner, Long.toString(leaseMillis), Long.toString(latchMillis),
                keys.publish());
    }

    @Override
    ScriptCall giveUp(LockKeys keys, String owner) {
        if (read) {
            return super.giveUp(keys, owner);
        }
        return ScriptCall.integer(SCRIPT,
                new String[] {keys.hash(), keys.fence(), keys.channel(), keys.latchPrefix()}, "give-up-write", owner, "0", "0", keys.publish());
    }

    @Override
    boolean leavesTracesWhileWaiting() {
        return !read;
    }

    @Override
    boolean isLockedBy(List<String> fields) {
        return fields.stream().anyMatch(field -> field.startsWith(fieldPrefix));
    }

    @Override
    void checkMayAcquire(LeaseKeeper leases, LockKeys keys, String owner, String name) {
        if (!read && leases.find(keys.hash(), READ.holdField(owner)) != null
                && leases.find(keys.hash(), holdField(owner)) == null) {
            throw new IllegalMonitorStateException("This thread holds the read lock of '" + name + "' and asks for its"
                    + " write lock, which would wait for itself forever. Release the read lock first, or take the"
                    + " write lock first (a writer may also read).");
        }
    }
}
