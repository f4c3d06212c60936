package dev.locksmith.internal.lock;

import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.ScriptCall;
import java.util.List;

/**
 * The one script call that confirms and extends many holds at once: used by the watchdog on
 * every tick and by the transaction support before commit.
 */
public final class RenewalCall {
    private static final LuaScript RENEW = LuaScript.load("renew");

    private RenewalCall() {
    }

    /**
     * @param holds       holds whose hashes one call may touch together (one server or slot)
     * @param leaseMillis the lease to extend them to
     * @return a call answering one 1 (still held, extended) or 0 (gone) per hold, in order
     */
    public static ScriptCall of(List<Hold> holds, long leaseMillis) {
        String[] keys = new String[holds.size()];
        String[] args = new String[2 * holds.size() + 1];
        args[0] = Long.toString(leaseMillis);
        for (int i = 0; i < holds.size(); i++) {
            Hold hold = holds.get(i);
            keys[i] = hold.keys().hash();
            args[2 * i + 1] = hold.field();
            args[2 * i + 2] = hold.expiryField();
        }
        return ScriptCall.list(RENEW, keys, args);
    }
}
