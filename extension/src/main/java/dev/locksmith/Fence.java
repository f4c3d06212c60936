package dev.locksmith;

import java.sql.Connection;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Fenced writes: the database itself refuses the work of a holder whose lock ran out. A small
 * table of the application's own database keeps, per lock name, the highest fencing token it has
 * seen; {@link #check(Connection, DistributedLock)} compares the caller's token with it, in the
 * caller's own transaction, and refuses a token older than one a later holder has already used.
 *
 * <pre>{@code
 * Fence fence = Fence.standard();                       // table locksmith_fence
 * DistributedLock lock = locks.getLock("account:" + id);
 * lock.lock();
 * try (Connection connection = dataSource.getConnection()) {
 *     connection.setAutoCommit(false);
 *     try {
 *         fence.check(connection, lock);                // first statement under the lock
 *         ... read and write the account on the same connection ...
 *         connection.commit();
 *     } catch (RuntimeException | SQLException e) {
 *         connection.rollback();                        // FencedWriteRefusedException: a later holder came first
 *         throw e;
 *     }
 * } finally {
 *     lock.unlock();
 * }
 * }</pre>
 *
 * <p>With JPA, {@link #check(jakarta.persistence.EntityManager, DistributedLock)} runs the same check
 * through the entity manager, in the resource-local or JTA transaction it takes part in:
 * <pre>{@code
 * em.getTransaction().begin();
 * fence.check(em, lock);                                // before the first read
 * Account account = em.find(Account.class, id);
 * account.add(amount);
 * em.getTransaction().commit();
 * }</pre>
 *
 * <p>The check is one {@code UPDATE} of the name's row that succeeds when the caller's token is at
 * least the one stored; it locks that row until the transaction ends, so that a later holder's
 * check waits for this transaction, and a stale holder's check either waits for the later holder
 * and is then refused, or comes first and holds the later holder back until it has committed or
 * rolled back. Only when that {@code UPDATE} changes nothing does it read the row, and insert it
 * on the name's first use. The same holder may check as often as it likes in one transaction.
 * The reasoning, case by case, is in {@code docs/fencing.md}.
 *
 * <p>The table ({@link #createTableStatement()}):
 * <pre>{@code
 * CREATE TABLE locksmith_fence (lock_name VARCHAR(512) NOT NULL PRIMARY KEY, token BIGINT NOT NULL)
 * }</pre>
 *
 * <p>A {@code Fence} is immutable and safe to share between threads.
 */
public final class Fence {
    /** The table's name unless one is given: {@value}. */
    public static final String DEFAULT_TABLE = "locksmith_fence";

    /** An SQL identifier without quotes, optionally qualified by a schema: {@code app.locksmith_fence}. */
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}(\\.[A-Za-z_][A-Za-z0-9_]{0,127})?");

    private final FenceTable table;
    private final Consumer<? super FencedWriteRefusedException> onRefusal;
    private final FenceCheck checks;

    private Fence(FenceTable table, Consumer<? super FencedWriteRefusedException> onRefusal) {
        this.table = table;
        this.onRefusal = onRefusal;
        this.checks = new FenceCheck(table, onRefusal);
    }

    /**
     * @return the fence in the table {@value #DEFAULT_TABLE}
     */
    public static Fence standard() {
        return table(DEFAULT_TABLE);
    }

    /**
     * @param table the table's name: an SQL identifier of letters, digits and underscores that does
     *              not start with a digit, optionally qualified by a schema ({@code app.locksmith_fence})
     * @return the fence in that table
     * @throws IllegalArgumentException if {@code table} is null or no such identifier
     */
    public static Fence table(String table) {
        if (table == null || !IDENTIFIER.matcher(table).matches()) {
            throw new IllegalArgumentException("Fence table '" + table + "' is not a plain SQL identifier: use letters,"
                    + " digits and underscores, not starting with a digit, optionally after a schema and a dot,"
                    + " such as " + DEFAULT_TABLE + " or app." + DEFAULT_TABLE);
        }
        return new Fence(new FenceTable(table), refusal -> { });
    }

    /**
     * @param listener told of every refusal, on the refused caller's thread, before the exception is
     *                 thrown; for metrics and logs. What it throws is added to the refusal as suppressed
     * @return a fence in the same table that also tells {@code listener}
     * @throws NullPointerException if {@code listener} is null
     */
    public Fence onRefusal(Consumer<? super FencedWriteRefusedException> listener) {
        Objects.requireNonNull(listener, "listener");
        Consumer<? super FencedWriteRefusedException> before = onRefusal;
        return new Fence(table, refusal -> {
            before.accept(refusal);
            listener.accept(refusal);
        });
    }

    /**
     * @return the table's name, as given
     */
    public String tableName() {
        return table.name();
    }

    /**
     * @return the portable statement that creates the table:
     *         {@code CREATE TABLE <table> (lock_name VARCHAR(512) NOT NULL PRIMARY KEY, token BIGINT NOT NULL)}
     */
    public String createTableStatement() {
        return table.createStatement();
    }

    /**
     * @param connection a connection to the database; in auto-commit mode or not (the probe then
     *                   runs under a savepoint, so a missing table does not spoil the transaction)
     * @return whether the table exists and this connection may read it
     * @throws LockException if the database cannot be asked
     */
    public boolean tableExists(Connection connection) {
        return table.exists(connection);
    }

    /**
     * Creates the table unless it exists; two servers that start at once may both try, and the
     * loser finds the winner's table.
     *
     * @param connection a connection allowed to create tables, in auto-commit mode or not (then
     *                   the caller commits)
     * @throws LockException naming the table, the statement and the fix, if it neither exists nor
     *                       could be created
     */
    public void createTableIfAbsent(Connection connection) {
        table.createIfAbsent(connection);
    }

    /**
     * Checks the current thread's hold of {@code lock} against the fence table, as the first
     * statement under the lock in the connection's transaction. See
     * {@link #check(Connection, String, long)}.
     *
     * @param connection the connection whose transaction the lock protects, with auto-commit off
     * @param lock       a lock the current thread holds
     * @throws FencedWriteRefusedException  if a later holder's token is in the table
     * @throws LockLostException            if this process already knows the hold was lost
     * @throws IllegalMonitorStateException if the current thread does not hold {@code lock}
     * @throws LockException                if the database failed the check
     */
    public void check(Connection connection, DistributedLock lock) {
        check(connection, lock.getName(), lock.fencingToken());
    }

    /**
     * Checks a fencing token against the fence table in the connection's transaction: passes when
     * {@code fencingToken} is at least the highest token the table has for {@code lockName}, and
     * stores it; the name's row stays locked by this transaction until it ends. The name's first
     * use inserts its row. One {@code UPDATE} when the row exists and the token passes.
     *
     * @param connection   the connection whose transaction the lock protects, with auto-commit off
     *                     (in auto-commit mode the row is not kept locked, and the check protects
     *                     nothing that follows)
     * @param lockName     the lock's name
     * @param fencingToken the holder's token ({@link DistributedLock#fencingToken()})
     * @throws FencedWriteRefusedException if the table has a larger token for the name; the caller
     *                                     must roll the transaction back
     * @throws LockException               if the database failed the check: the table is missing, or
     *                                     a concurrent first use of the same name inserted its row at
     *                                     the same moment (a duplicate key: roll back and retry)
     * @throws NullPointerException        if {@code connection} or {@code lockName} is null
     */
    public void check(Connection connection, String lockName, long fencingToken) {
        Objects.requireNonNull(connection, "connection");
        checks.run(new JdbcFenceStatements(connection), lockName, fencingToken);
    }

    /**
     * Checks the current thread's hold of {@code lock} against the fence table, through a JPA
     * {@code EntityManager}, as the first statement under the lock in the transaction it takes part
     * in. See {@link #check(jakarta.persistence.EntityManager, String, long)}.
     *
     * @param entityManager the entity manager whose transaction the lock protects
     * @param lock          a lock the current thread holds
     * @throws FencedWriteRefusedException  if a later holder's token is in the table
     * @throws LockLostException            if this process already knows the hold was lost
     * @throws IllegalMonitorStateException if the current thread does not hold {@code lock}
     * @throws IllegalStateException        if the entity manager takes part in no transaction
     * @throws LockException                if the database failed the check
     */
    public void check(jakarta.persistence.EntityManager entityManager, DistributedLock lock) {
        check(entityManager, lock.getName(), lock.fencingToken());
    }

    /**
     * The check of {@link #check(Connection, String, long)}, run as native queries of a JPA
     * {@code EntityManager} in the transaction it takes part in: a resource-local transaction
     * ({@code entityManager.getTransaction().begin()}) or the JTA transaction it joined. Run it
     * before the transaction's first read of the data the lock protects; the entity manager
     * flushes changes it holds before a native query, so writes made before the check are not
     * protected by it. Jakarta Persistence is needed only by the caller of this method.
     *
     * @param entityManager the entity manager whose transaction the lock protects
     * @param lockName      the lock's name
     * @param fencingToken  the holder's token ({@link DistributedLock#fencingToken()})
     * @throws FencedWriteRefusedException if the table has a larger token for the name; the caller
     *                                     must roll the transaction back
     * @throws IllegalStateException       if the entity manager takes part in no transaction: the
     *                                     check would protect nothing; begin one first
     * @throws LockException               if the database failed the check (see
     *                                     {@link #check(Connection, String, long)})
     * @throws NullPointerException        if {@code entityManager} or {@code lockName} is null
     */
    public void check(jakarta.persistence.EntityManager entityManager, String lockName, long fencingToken) {
        Objects.requireNonNull(entityManager, "entityManager");
        JpaFenceStatements statements = new JpaFenceStatements(entityManager);
        if (!statements.inTransaction()) {
            throw new IllegalStateException("The fence check of lock '" + lockName + "' needs a transaction, and the"
                    + " EntityManager takes part in none: begin one first (entityManager.getTransaction().begin(),"
                    + " or join the JTA transaction), then check, then read and write in it");
        }
        checks.run(statements, lockName, fencingToken);
    }

    @Override
    public String toString() {
        return "Fence(" + table.name() + ")";
    }
}
