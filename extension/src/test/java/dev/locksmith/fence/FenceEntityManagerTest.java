package dev.locksmith.fence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.locksmith.DistributedLock;
import dev.locksmith.Fence;
import dev.locksmith.FencedWriteRefusedException;
import dev.locksmith.LockManager;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.H2Database;
import dev.locksmith.testing.PostgresServerExtension;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.TestDatabase;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.sql.Connection;
import java.sql.SQLException;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Fence#check(EntityManager, DistributedLock)}: the fence check through a JPA entity
 * manager (Hibernate) in a resource-local transaction, on H2 and PostgreSQL. A stale holder's
 * transaction is refused before it reads, and the later holder's deposit is the one that counts.
 */
class FenceEntityManagerTest {
    @RegisterExtension
    static final PostgresServerExtension postgres = new PostgresServerExtension();
    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final H2Database h2 = new H2Database();
    private final Fence fence = Fence.table("fence_jpa");
    private SessionFactory entities;

    @AfterEach
    void dropTheDatabases() {
        if (entities != null) {
            entities.close(); // create-drop: drops the account table
        }
        h2.close();
        postgres.execute("DROP TABLE IF EXISTS fence_jpa");
    }

    /** An account row the lock {@code account:<id>} protects. */
    @Entity
    @Table(name = "fence_jpa_account")
    public static class Account {
        @Id
        long id;
        int balance;

        protected Account() {
        }

        Account(long id, int balance) {
            this.id = id;
            this.balance = balance;
        }
    }

    private TestDatabase database(String title) {
        TestDatabase database = title.equals("H2") ? h2 : postgres;
        try (Connection connection = database.dataSource().getConnection()) {
            fence.createTableIfAbsent(connection);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        Configuration configuration = new Configuration().addAnnotatedClass(Account.class)
                .setProperty("hibernate.hbm2ddl.auto", "create-drop");
        configuration.getProperties().put("hibernate.connection.datasource", database.dataSource());
        entities = configuration.buildSessionFactory();
        try (EntityManager em = entities.createEntityManager()) {
            em.getTransaction().begin();
            em.persist(new Account(1, 100));
            em.getTransaction().commit();
        }
        return database;
    }

    /** A deposit as a fenced holder makes it: begin, check, read, write, commit; rolled back on failure. */
    private void deposit(String name, long token, int amount) {
        try (EntityManager em = entities.createEntityManager()) {
            em.getTransaction().begin();
            try {
                fence.check(em, name, token);
                em.find(Account.class, 1L).balance += amount;
                em.getTransaction().commit();
            } catch (RuntimeException e) {
                em.getTransaction().rollback();
                throw e;
            }
        }
    }

    private int balance() {
        try (EntityManager em = entities.createEntityManager()) {
            return em.find(Account.class, 1L).balance;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aStaleHoldersTransactionIsRefusedBeforeItReadsAndTheLaterDepositCounts(String title) {
        TestDatabase database = database(title);
        deposit("account:1", 6, 10);

        FencedWriteRefusedException refusal = catchThrowableOfType(FencedWriteRefusedException.class,
                () -> deposit("account:1", 5, 1));

        assertThat(refusal.fencingToken()).isEqualTo(5);
        assertThat(refusal.databaseToken()).isEqualTo(6);
        assertThat(refusal.getMessage()).contains("'account:1'", "fence_jpa");
        assertThat(balance()).isEqualTo(110);
        assertThat(database.queryLong("SELECT token FROM fence_jpa WHERE lock_name = 'account:1'")).isEqualTo(6);
    }

    @ParameterizedTest
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theFirstUseInsertsTheNameAndALaterTokenPasses(String title) {
        TestDatabase database = database(title);

        deposit("account:1", 5, 1);
        deposit("account:1", 5, 1);
        deposit("account:1", 9, 1);

        assertThat(balance()).isEqualTo(103);
        assertThat(database.queryLong("SELECT token FROM fence_jpa WHERE lock_name = 'account:1'")).isEqualTo(9);
    }

    @Test
    void aHeldLocksTokenIsTheOneChecked() {
        TestDatabase database = database("PostgreSQL");
        try (LockManager locks = Locksmith.builder().redisUri(redis.uri()).build()) {
            DistributedLock lock = locks.getLock("account:1");
            lock.lock();
            long token = lock.fencingToken();
            try (EntityManager em = entities.createEntityManager()) {
                em.getTransaction().begin();
                fence.check(em, lock);
                em.getTransaction().commit();
            } finally {
                lock.unlock();
            }
            assertThat(database.queryLong("SELECT token FROM fence_jpa WHERE lock_name = 'account:1'"))
                    .isEqualTo(token);
        }
    }

    @Test
    void withoutATransactionTheCheckIsRefusedSayingToBeginOne() {
        database("H2");
        try (EntityManager em = entities.createEntityManager()) {
            assertThatThrownBy(() -> fence.check(em, "account:1", 5)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'account:1'").hasMessageContaining("getTransaction().begin()");
        }
        assertThat(h2.queryLong("SELECT COUNT(*) FROM fence_jpa")).isZero();
    }
}
