package dev.locksmith.internal.lock;

/**
 * The Redis keys and channel of one lock name. All begin with {@code prefix{name}}, so in a
 * cluster they share one hash slot and one script may touch them together.
 *
 * @param hash        the hash of holds: owner id to hold count
 * @param fence       the fencing counter; outlives the lock so tokens keep increasing
 * @param channel     where releases are published
 * @param latchPrefix the start of the short-lived keys that make a retried release harmless
 */
public record LockKeys(String hash, String fence, String channel, String latchPrefix) {

    /**
     * @param prefix the configured key prefix
     * @param name   a valid lock name
     * @return the keys of that lock
     */
    public static LockKeys of(String prefix, String name) {
        String base = prefix + "{" + name + "}";
        return new LockKeys(base, base + ":fence", base + ":released", base + ":unlock:");
    }

    /**
     * @param suffix a sub-lock's own part, such as {@code read} or {@code write}
     * @return keys in the same hash slot, for a lock kind that needs more than one hash
     */
    public String sibling(String suffix) {
        return hash + ":" + suffix;
    }
}
