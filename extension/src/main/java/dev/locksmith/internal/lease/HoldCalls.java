package dev.locksmith.internal.lease;

import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockScript;
import java.util.List;

/**
 * The script calls that keep holds alive and drop them, whatever the kind of lock.
 */
public final class HoldCalls {
    private HoldCalls() {
    }

    /**
     * @param holds       holds whose hashes one call may touch together (one server or slot)
     * @param leaseMillis the lease to extend them to
     * @return a call answering one 1 (still held, extended) or 0 (gone) per hold, in order
     */
    static ScriptCall renewal(List<Hold> holds, long leaseMillis) {
        String[] keys = new String[holds.size()];
        String[] args = new String[2 * holds.size() + 1];
        args[0] = Long.toString(leaseMillis);
        for (int i = 0; i < holds.size(); i++) {
            Hold hold = holds.get(i);
            keys[i] = hold.keys().lock();
            args[2 * i + 1] = hold.field();
            args[2 * i + 2] = hold.expiryField();
        }
        return LockScript.list("renew", keys, args);
    }

    /**
     * @param keys        where the lock lives
     * @param field       the owner (an exclusive lock) or its hold field (read/write)
     * @param expiryField "" (an exclusive lock) or the owner's expiry field (read/write)
     * @return the call that drops every hold of that owner, whoever runs it; it answers 1 when
     *         there was one, 0 when not
     */
    public static ScriptCall releaseAll(HoldKeys keys, String field, String expiryField) {
        return LockScript.integer("release-all", new String[] {keys.lock(), keys.channel()}, field, expiryField,
                keys.publishCommand());
    }
}
