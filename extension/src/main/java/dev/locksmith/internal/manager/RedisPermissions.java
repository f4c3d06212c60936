package dev.locksmith.internal.manager;

import dev.locksmith.LockException;
import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.internal.store.LockStore;
import dev.locksmith.internal.store.RedisReplies;
import java.util.List;

/**
 * Checks, once when a manager is built, that the Redis user may run every command Locksmith
 * sends on Locksmith's keys and channels, and names what is missing. Without the check a
 * missing permission would surface at the first lock of some kind, in the middle of a script.
 */
final class RedisPermissions {
    /** The name the check pretends to lock; nothing is written under it. */
    private static final String PROBE_NAME = "locksmith-access-check";

    private RedisPermissions() {
    }

    /**
     * @throws LockException naming every refused command and where the rules are documented
     */
    static void check(LockStore store, RedisReplies replies, String keyPrefix, boolean waitsForReplicas) {
        LockKeys keys = LockKeys.of(keyPrefix, PROBE_NAME);
        LockKeys readWrite = keys.readWrite();
        List<String> refused = replies.await(store.askEveryNode(LockScript.call("access").key("lock", keys.lock())
                .key("fence", keys.fence()).key("rw-lock", readWrite.lock()).key("queue", keys.queue())
                .key("place", keys.placePrefix() + "owner").key("latch", keys.latch("owner"))
                .key("runs", keys.recentRuns()).arg("channel", keys.channel())
                .arg("sharded", store.sharded() ? "sharded" : "").flag("replicas", waitsForReplicas).list()),
                "Checking the Redis user's permissions");
        if (!refused.isEmpty()) {
            throw new LockException("The Redis user of " + store.description() + " may not run commands Locksmith"
                    + " needs on keys and channels under '" + keyPrefix + "': " + String.join(", ", refused)
                    + ". Grant the ACL rules listed in docs/configuration.md (section \"Redis permissions\"), for"
                    + " example ACL SETUSER <user> ~" + keyPrefix + "* &" + keyPrefix + "* plus the commands named there");
        }
    }
}
