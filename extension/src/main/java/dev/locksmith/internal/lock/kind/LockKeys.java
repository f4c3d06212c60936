package dev.locksmith.internal.lock.kind;

import dev.locksmith.internal.lease.HoldKeys;
import dev.locksmith.internal.store.StoreTopology;
import dev.locksmith.internal.store.StoreTopology;

/**
 * The Redis keys and channel of one lock. All begin with {@code prefix{name}}, so in a cluster
 * they share one hash slot and one script may touch them together. A name's {@code %} and
 * {@code }} are written as {@code %25} and {@code %7D} there: a {@code }} would end the hash tag
 * early (a name starting with one would leave it empty), and the escape keeps distinct names
 * apart.
 *
 * @param lock        the lock itself: a string for the exclusive kinds, a hash for read/write
 * @param fence       the fencing counter of the name, shared by every kind; outlives the lock
 *                    so tokens keep increasing
 * @param channel     where releases are published
 * @param latchPrefix the start of each owner's short-lived key that makes its resent release harmless
 * @param queue       the fair lock's queue of waiting owners
 * @param placePrefix the start of each fair waiter's place key, which lapses when it stops asking
 * @param publish     the command that announces a release on {@code channel}: {@code publish},
 *                    or {@code spublish} (sharded, kept on the lock's own shard) in a cluster
 */
public record LockKeys(String lock, String fence, String channel, String latchPrefix, String queue,
                       String placePrefix, String publish) {
    private static final String READ_WRITE = ":rw";

    /**
     * @param prefix the configured key prefix
     * @param name   a valid lock name
     * @return the keys of the exclusive (reentrant and fair) lock of that name
     */
    public static LockKeys of(String prefix, String name) {
        String base = prefix + "{" + hashTag(name) + "}";
        return at(base, base + ":fence");
    }

    /**
     * @return the name as it stands between the braces of its keys
     */
    static String hashTag(String name) {
        if (name.indexOf('%') < 0 && name.indexOf('}') < 0) {
            return name;
        }
        return name.replace("%", "%25").replace("}", "%7D");
    }

    /**
     * @param owner an owner id
     * @return the key remembering the answer to that owner's latest release of this lock
     */
    public String latch(String owner) {
        return latchPrefix + owner;
    }

    /**
     * @param managerId a lock manager's id
     * @return the channel on which only that manager's process hears of this lock: the offers of
     *         the reentrant lock and the write lock, and the fair queue's turns of its owners
     */
    public String address(String managerId) {
        return channel + ":" + managerId + ":";
    }

    /**
     * @return the key remembering the latest run of a job under a lock of this name (of the keys
     *         of the exclusive lock, from {@link #of})
     */
    public String lastRun() {
        return lock + ":last-run";
    }

    /**
     * @return the key of the short list of recent runs of a job of this name, newest first (of the
     *         keys from {@link #of}); it shares the last-run key's hash slot
     */
    public String recentRuns() {
        return lock + ":runs";
    }

    /**
     * @return what keeping and dropping a hold of this lock needs
     */
    public HoldKeys holdKeys() {
        return new HoldKeys(lock, channel, publish);
    }

    /**
     * @return whether these are the keys of a read/write lock (from {@link #readWrite()})
     */
    public boolean isReadWrite() {
        return lock.endsWith(READ_WRITE);
    }

    /**
     * @return the keys of the read/write lock of the same name
     */
    public LockKeys readWrite() {
        return at(lock + READ_WRITE, fence).publishingWith(publish);
    }

    /**
     * @param command {@code publish} or {@code spublish}
     * @return the same keys, announcing releases with that command
     */
    public LockKeys publishingWith(String command) {
        return new LockKeys(lock, fence, channel, latchPrefix, queue, placePrefix, command);
    }

    private static LockKeys at(String base, String fence) {
        return new LockKeys(base, fence, base + ":released", base + ":unlock:", base + ":queue", base + ":waits:",
                StoreTopology.PUBLISH);
    }
}
