package dev.locksmith;

/**
 * The database refused the work of a holder whose lock is no longer its own: the fence table
 * ({@link Fence}) has already seen a later holder's fencing token for the same lock name. The
 * lease of this holder ran out (a long pause, Redis unreachable for longer than the lease) and a
 * later holder has taken the lock since; whatever this holder wrote in its transaction must not
 * commit.
 *
 * <p>Inside a JTA transaction ({@code @Locked(fenced = true)}) the transaction is marked
 * rollback-only before this is thrown. With {@link Fence#check(java.sql.Connection, DistributedLock)}
 * on a plain connection, roll the connection's transaction back yourself.
 *
 * <p>What to do: roll back, and retry the work under a new hold of the lock if it is still
 * needed. If it happens often, the holders pause for longer than the lease: lengthen the lease
 * ({@code locksmith.lease-time}, {@code leaseTime}) or find the pauses (garbage collection, a
 * stalled network).
 */
public class FencedWriteRefusedException extends LockLostException {
    private static final long serialVersionUID = 1L;

    /** This holder's fencing token. */
    private final long fencingToken;
    /** The highest token the fence table has seen for the name. */
    private final long databaseToken;

    /**
     * @param lockName      the lock whose fence refused the write
     * @param fencingToken  this holder's fencing token
     * @param databaseToken the later token the fence table holds for that name
     * @param table         the fence table, for the message
     */
    public FencedWriteRefusedException(String lockName, long fencingToken, long databaseToken, String table) {
        super(lockName, "Fenced write refused for lock '" + lockName + "': this holder's fencing token " + fencingToken
                + " is older than " + databaseToken + ", the token the fence table " + table + " has seen for that"
                + " name. The lease ran out and a later holder has taken the lock since, so this transaction must"
                + " not commit: roll it back and retry the work under a new hold of the lock. If this happens often,"
                + " the holder pauses for longer than its lease: lengthen the lease (locksmith.lease-time,"
                + " leaseTime) or find the pauses (garbage collection, a stalled network).");
        this.fencingToken = fencingToken;
        this.databaseToken = databaseToken;
    }

    /**
     * @return the fencing token of the holder whose write was refused
     */
    public long fencingToken() {
        return fencingToken;
    }

    /**
     * @return the later token the fence table had seen for the lock name, from a later holder
     */
    public long databaseToken() {
        return databaseToken;
    }
}
