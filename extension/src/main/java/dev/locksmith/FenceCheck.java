package dev.locksmith;

import java.sql.SQLException;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The check of a {@link Fence}, on whichever {@link FenceStatements} carry it to the database: the
 * {@code UPDATE} that passes a token at least the stored one; only when it changes nothing, the
 * {@code SELECT}, and the {@code INSERT} of a name's first use; a refusal told to the fence's
 * listener before it is thrown.
 */
final class FenceCheck {
    /** How often the check starts again when a row it missed was inserted meanwhile by a first use. */
    private static final int ATTEMPTS = 3;

    private final FenceTable table;
    private final Consumer<? super FencedWriteRefusedException> onRefusal;

    FenceCheck(FenceTable table, Consumer<? super FencedWriteRefusedException> onRefusal) {
        this.table = table;
        this.onRefusal = onRefusal;
    }

    /**
     * @see Fence#check(java.sql.Connection, String, long)
     */
    void run(FenceStatements statements, String lockName, long fencingToken) {
        Objects.requireNonNull(lockName, "lockName");
        String name = table.name();
        try {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                if (statements.update("UPDATE " + name + " SET token = ? WHERE lock_name = ? AND token <= ?",
                        fencingToken, lockName, fencingToken) == 1) {
                    return;
                }
                Long stored = statements.firstLong("SELECT token FROM " + name + " WHERE lock_name = ?", lockName);
                if (stored == null) {
                    statements.update("INSERT INTO " + name + " (lock_name, token) VALUES (?, ?)", lockName,
                            fencingToken);
                    return;
                }
                if (stored > fencingToken) {
                    throw refused(lockName, fencingToken, stored);
                }
                // A first use inserted the row between the UPDATE and the SELECT: the UPDATE now finds it.
            }
            throw new LockException(lockName, "The fence check of lock '" + lockName + "' in table " + name
                    + " found the row changing under it " + ATTEMPTS + " times; roll back and retry", null);
        } catch (SQLException e) {
            throw new LockException(lockName, "The fence check of lock '" + lockName + "' (fencing token "
                    + fencingToken + ") in table " + name + " failed: " + e + ". If the table is missing, create it: "
                    + table.createStatement() + ". A duplicate key means another holder used the name for the first"
                    + " time at the same moment: roll back and retry", e);
        }
    }

    private FencedWriteRefusedException refused(String lockName, long token, long stored) {
        FencedWriteRefusedException refusal = new FencedWriteRefusedException(lockName, token, stored, table.name());
        try {
            onRefusal.accept(refusal);
        } catch (RuntimeException e) {
            refusal.addSuppressed(e);
        }
        return refusal;
    }
}
