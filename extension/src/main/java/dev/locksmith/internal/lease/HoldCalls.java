package dev.locksmith.internal.lease;

import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.internal.store.LockScriptCall;
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
        LockScriptCall renewal = LockScript.call("renew");
        for (Hold hold : holds) {
            renewal.key("lock", hold.keys().lock());
        }
        renewal.arg("lease", leaseMillis);
        for (Hold hold : holds) {
            renewal.arg("hold", hold.field()).arg("expiry", hold.expiryField());
        }
        return renewal.list();
    }

    /**
     * @param keys        where the lock lives
     * @param field       the owner (an exclusive lock) or its hold field (read/write)
     * @param expiryField "" (an exclusive lock) or the owner's expiry field (read/write)
     * @return the call that drops every hold of that owner, whoever runs it; it answers 1 when
     *         there was one, 0 when not
     */
    public static ScriptCall releaseAll(HoldKeys keys, String field, String expiryField) {
        return LockScript.call("release-all").key("lock", keys.lock()).key("channel", keys.channel())
                .arg("hold", field).arg("expiry", expiryField).arg("publish", keys.publishCommand()).integer();
    }
}
