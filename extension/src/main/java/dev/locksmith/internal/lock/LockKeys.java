package dev.locksmith.internal.lock;

import dev.locksmith.internal.lease.HoldKeys;

/**
 * The Redis keys and channel of one lock. All begin with {@code prefix{name}}, so in a cluster
 * they share one hash slot and one script may touch them together.
 *
 * @param hash           the hash of holds: owner (or side and owner) to hold count
 * @param fence          the fencing counter of the name, shared by every kind; outlives the
 *                       lock so tokens keep increasing
 * @param channel        where releases are published
 * @param latchPrefix    the start of the short-lived keys that make a resent release harmless
 * @param queue          the fair lock's queue of waiting owners
 * @param queueDeadlines until when each queued owner keeps its place
 * @param publish        the command that announces a release on {@code channel}: {@code publish},
 *                       or {@code spublish} (sharded, kept on the lock's own shard) in a cluster
 */
public record LockKeys(String hash, String fence, String channel, String latchPrefix, String queue,
                       String queueDeadlines, String publish) {

    /**
     * @param prefix the configured key prefix
     * @param name   a valid lock name
     * @return the keys of the exclusive (reentrant and fair) lock of that name
     */
    public static LockKeys of(String prefix, String name) {
        String base = prefix + "{" + name + "}";
        return at(base, base + ":fence");
    }

    /**
     * @return what keeping and dropping a hold of this lock needs
     */
    public HoldKeys holdKeys() {
        return new HoldKeys(hash, channel, publish);
    }

    /**
     * @return the keys of the read/write lock of the same name
     */
    public LockKeys readWrite() {
        return at(hash + ":rw", fence).publishingWith(publish);
    }

    /**
     * @param command {@code publish} or {@code spublish}
     * @return the same keys, announcing releases with that command
     */
    public LockKeys publishingWith(String command) {
        return new LockKeys(hash, fence, channel, latchPrefix, queue, queueDeadlines, command);
    }

    private static LockKeys at(String base, String fence) {
        return new LockKeys(base, fence, base + ":released", base + ":unlock:", base + ":queue",
                base + ":queue:deadlines", "publish");
    }
}
