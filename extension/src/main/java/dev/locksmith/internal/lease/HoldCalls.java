package dev.locksmith.internal.lease;

import dev.locksmith.internal.redis.LuaScript;
import dev.locksmith.internal.redis.ScriptCall;
import java.util.List;

/**
 * The script calls that keep holds alive and drop them, whatever the kind of lock.
 */
public final class HoldCalls {
    private static final LuaScript RENEW = LuaScript.load("renew");
    private static final LuaScript RELEASE_ALL = LuaScript.load("release-all");

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
            keys[i] = hold.keys().hash();
            args[2 * i + 1] = hold.field();
            args[2 * i + 2] = hold.expiryField();
        }
        return ScriptCall.list(RENEW, keys, args);
    }

    /**
     * @param keys        where the lock lives
     * @param field       the owner's hold-count field
     * @param expiryField the owner's expiry field, or ""
     * @return the call that drops every hold counted in {@code field}, whoever runs it; it answers
     *         1 when there was one, 0 when not
     */
    public static ScriptCall releaseAll(HoldKeys keys, String field, String expiryField) {
        return ScriptCall.integer(RELEASE_ALL, new String[] {keys.hash(), keys.channel()}, field, expiryField,
                keys.publishCommand());
    }
}
