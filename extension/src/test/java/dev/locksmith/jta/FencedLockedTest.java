package dev.locksmith.jta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.arjuna.ats.jta.cdi.TransactionExtension;
import dev.locksmith.DistributedLock;
import dev.locksmith.Fence;
import dev.locksmith.FencedWriteRefusedException;
import dev.locksmith.LockException;
import dev.locksmith.LockLostException;
import dev.locksmith.LockManager;
import dev.locksmith.Locked;
import dev.locksmith.Locksmith;
import dev.locksmith.testing.Await;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.CountedMetrics;
import dev.locksmith.testing.EnlistingDataSource;
import dev.locksmith.testing.H2Database;
import dev.locksmith.testing.InMemoryNaming;
import dev.locksmith.testing.PausableScheduler;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.TestConfig;
import dev.locksmith.testing.Transactions;
import io.opentelemetry.api.OpenTelemetry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.transaction.Transactional;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.naming.InitialContext;
import javax.sql.DataSource;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code @Locked(fenced = true)} in JTA transactions of a real transaction manager (Narayana) on a
 * real database (H2, enlisted as an XA resource, bound where a server binds its default data
 * source): a holder whose lease ran out and whose lock a later holder has taken is refused, and
 * nothing it wrote commits; a holder that was never stale commits; and the schedule that loses an
 * update without fencing loses none with it.
 */
class FencedLockedTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String DATA_SOURCE = "java:comp/DefaultDataSource";

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final H2Database h2 = new H2Database();
    private final PausableScheduler watchdog = new PausableScheduler();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final CountedMetrics metrics = new CountedMetrics();
    private TestConfig config;
    private WeldContainer container;
    private LockManager otherJvm;
    private Accounts accounts;

    @BeforeEach
    void startTheApplicationOnItsDatabase() {
        h2.execute("CREATE TABLE account (id INT PRIMARY KEY, balance INT NOT NULL)",
                "INSERT INTO account VALUES (1, 100), (2, 100), (3, 100), (4, 100)");
        Transactions.bindInJndi();
        InMemoryNaming.bind("java:comp/DefaultManagedScheduledExecutorService", watchdog);
        InMemoryNaming.bind(DATA_SOURCE, new EnlistingDataSource(h2.xaDataSource(), Transactions.manager()));
        Telemetry.metrics = metrics;
        config = TestConfig.redis(redis.uri(), "locksmith.lease-time", "600ms");
        container = CdiContainers.weld(Accounts.class,
                        PauseAfterLocking.Pausing.class, Telemetry.class)
                .addExtension(new TransactionExtension()).initialize();
        accounts = container.select(Accounts.class).get();
        otherJvm = Locksmith.builder().redisUri(redis.uri()).build();
    }

    @AfterEach
    void stopEverything() {
        PauseAfterLocking.NEXT.set(null);
        threads.shutdownNow();
        watchdog.resume();
        try {
            container.close();
        } finally {
            config.close();
            otherJvm.close();
            Transactions.rollBackLeftovers();
            InMemoryNaming.clear();
            watchdog.shutdownNow();
            metrics.close();
            h2.close();
        }
        assertThat(redis.lockStateLeftBehind(5_000)).isEmpty();
    }

    @Test
    void aHolderWhoseLockWasTakenMeanwhileIsRefusedNamingBothTokensAndNothingItWroteCommits() throws Exception {
        watchdog.pause();
        PauseAfterLocking.Gate gate = PauseAfterLocking.Gate.next();
        Future<?> stale = threads.submit(() -> accounts.deposit(1, 10, () -> null));
        assertThat(gate.arrived().await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("paused holding the lock").isTrue();
        long laterToken = laterHolderAdds(1, 1, true);

        Path dump = Files.createTempFile("fenced", ".jfr");
        Throwable failure;
        try (Recording recording = new Recording()) {
            recording.enable("dev.locksmith.FencedWriteRefused");
            recording.start();
            gate.resume().countDown();
            failure = catchThrowable(() -> stale.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
            recording.stop();
            recording.dump(dump);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(dump);
        Files.delete(dump);

        assertThat(failure).isInstanceOf(ExecutionException.class);
        FencedWriteRefusedException refusal = (FencedWriteRefusedException) failure.getCause();
        assertThat(refusal.lockName()).isEqualTo("account:1");
        assertThat(refusal.databaseToken()).isEqualTo(laterToken);
        assertThat(refusal.fencingToken()).isLessThan(laterToken);
        assertThat(refusal.getMessage()).contains("'account:1'", "token " + refusal.fencingToken(),
                "than " + laterToken, "roll it back and retry");
        assertThat(balance(1)).as("only the later holder's write").isEqualTo(101);
        assertThat(metrics.total("locksmith.lock.fence.refusals")).isEqualTo(1);
        assertThat(events).singleElement().satisfies(event -> {
            assertThat(event.getString("lockName")).isEqualTo("account:1");
            assertThat(event.getLong("fencingToken")).isEqualTo(refusal.fencingToken());
            assertThat(event.getLong("databaseToken")).isEqualTo(laterToken);
        });
    }

    @Test
    void aHolderThatWasNeverStaleCommitsAndLeavesItsTokenInTheTable() throws Exception {
        accounts.deposit(2, 10, () -> null);
        accounts.deposit(2, 5, () -> null);

        assertThat(balance(2)).isEqualTo(115);
        assertThat(h2.queryLong("SELECT COUNT(*) FROM locksmith_fence WHERE lock_name = 'account:2'")).isEqualTo(1);
        assertThat(metrics.total("locksmith.lock.fence.refusals")).isZero();
    }

    @Test
    void aFencedCallWithoutATransactionFailsNamingTheMethodAndTheFix() {
        Throwable failure = catchThrowable(() -> accounts.depositOutsideATransaction(2, 10));

        assertThat(failure).isInstanceOf(LockException.class)
                .hasMessageContaining("Accounts#depositOutsideATransaction")
                .hasMessageContaining("no JTA transaction is active")
                .hasMessageContaining("@Transactional");
        assertThat(balance(2)).isEqualTo(100);
    }

    @Test
    void aManagersFenceOnAPlainConnectionCountsItsRefusalsLikeAtLocked() throws Exception {
        h2.execute("INSERT INTO locksmith_fence VALUES ('ledger:1', " + Long.MAX_VALUE + ")");
        try (CountedMetrics counted = new CountedMetrics();
             LockManager jdbcApplication = Locksmith.builder().redisUri(redis.uri())
                     .openTelemetry(counted.openTelemetry()).build()) {
            DistributedLock lock = jdbcApplication.getLock("ledger:1");
            lock.lock();
            Throwable refused;
            try (Connection connection = h2.dataSource().getConnection()) {
                connection.setAutoCommit(false);
                refused = catchThrowable(() -> jdbcApplication.fence(Fence.DEFAULT_TABLE).check(connection, lock));
                connection.rollback();
            } finally {
                lock.unlock();
            }

            assertThat(refused).isInstanceOf(FencedWriteRefusedException.class)
                    .hasMessageContaining("than " + Long.MAX_VALUE);
            assertThat(counted.total("locksmith.lock.fence.refusals")).isEqualTo(1);
        }
    }

    /**
     * The stale holder is paused in its two-phase commit, after Locksmith confirmed its lock and
     * before the database committed; its lease runs out and a later holder, in another process,
     * takes the lock, reads and writes. Without fencing the later holder reads the balance from
     * before the stale write and overwrites it: an update is lost. With fencing the later holder's
     * check waits until the stale transaction has ended, and reads its write.
     */
    @Test
    void theScheduleThatLosesAnUpdateWithoutFencingLosesNoneWithIt() throws Exception {
        long unfenced = staleCommitDuringALaterHolder(3, false);
        long fenced = staleCommitDuringALaterHolder(4, true);

        assertThat(unfenced).as("without fencing: the stale holder's +10 is lost").isEqualTo(101);
        assertThat(fenced).as("with fencing: both deposits count").isEqualTo(111);
    }

    private long staleCommitDuringALaterHolder(int id, boolean fenced) throws Exception {
        if (fenced) {
            // The name's row exists from an earlier holder; on a name's very first use the later
            // holder's insert would fail with a duplicate key instead of waiting (docs/fencing.md).
            accounts.deposit(id, 0, () -> null);
        }
        watchdog.pause();
        PausingResource pausing = new PausingResource();
        Callable<Object> pauseInCommit = () -> {
            Transactions.manager().getTransaction().enlistResource(pausing);
            return null;
        };
        Future<?> stale = threads.submit(() -> fenced ? accounts.deposit(id, 10, pauseInCommit)
                : accounts.depositUnfenced(id, 10, pauseInCommit));
        assertThat(pausing.preparing.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("paused in prepare").isTrue();

        AtomicLong laterSession = new AtomicLong(-1);
        Future<Long> later = threads.submit(() -> laterHolderAdds(id, 1, fenced, laterSession));
        Await.until("the later holder waits for the stale holder's row", DEADLINE, () -> laterSession.get() >= 0
                && h2.queryLong("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID = "
                + laterSession.get() + " AND BLOCKER_ID IS NOT NULL") == 1);
        pausing.resume.countDown();
        Throwable staleOutcome = catchThrowable(() -> stale.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
        later.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

        // Its transaction committed; only the release afterwards finds the lock gone, too late to undo anything.
        assertThat(staleOutcome).isInstanceOf(ExecutionException.class).cause().isInstanceOf(LockLostException.class)
                .isNotInstanceOf(FencedWriteRefusedException.class);
        watchdog.resume();
        return balance(id);
    }

    private long laterHolderAdds(int id, int amount, boolean fenced) throws Exception {
        return laterHolderAdds(id, amount, fenced, new AtomicLong());
    }

    /** Another process takes the lock once the stale holder's lease ran out, and adds in its own transaction. */
    private long laterHolderAdds(int id, int amount, boolean fenced, AtomicLong session) throws Exception {
        DistributedLock lock = otherJvm.getLock("account:" + id);
        assertThat(lock.tryLock(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("the stale holder's lease ran out").isTrue();
        try (Connection connection = h2.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement select = connection.prepareStatement("SELECT SESSION_ID()");
                 ResultSet row = select.executeQuery()) {
                row.next();
                session.set(row.getLong(1));
            }
            if (fenced) {
                otherJvm.fence(Fence.DEFAULT_TABLE).check(connection, lock);
            }
            Ledger.add(connection, id, amount);
            connection.commit();
            return lock.fencingToken();
        } finally {
            lock.unlock();
        }
    }

    private long balance(int id) {
        return h2.queryLong("SELECT balance FROM account WHERE id = " + id);
    }

    /**
     * Reads a balance and writes it back increased: the read-modify-write a lock is for.
     */
    static final class Ledger {
        private Ledger() {
        }

        static void add(Connection connection, int id, int amount) throws SQLException {
            int balance;
            try (PreparedStatement select = connection.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
                select.setInt(1, id);
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    balance = row.getInt(1);
                }
            }
            try (PreparedStatement update = connection.prepareStatement("UPDATE account SET balance = ? WHERE id = ?")) {
                update.setInt(1, balance + amount);
                update.setInt(2, id);
                update.executeUpdate();
            }
        }

        static void add(int id, int amount) throws Exception {
            DataSource dataSource = InitialContext.doLookup(DATA_SOURCE);
            try (Connection connection = dataSource.getConnection()) {
                add(connection, id, amount);
            }
        }
    }

    @ApplicationScoped
    static class Accounts {
        @Locked(value = "account:{id}", fenced = true)
        @PauseAfterLocking
        @Transactional
        public Object deposit(int id, int amount, Callable<Object> beforeCommit) throws Exception {
            Ledger.add(id, amount);
            return beforeCommit.call();
        }

        @Locked("account:{id}")
        @Transactional
        public Object depositUnfenced(int id, int amount, Callable<Object> beforeCommit) throws Exception {
            Ledger.add(id, amount);
            return beforeCommit.call();
        }

        @Locked(value = "account:{id}", fenced = true)
        public void depositOutsideATransaction(int id, int amount) throws Exception {
            Ledger.add(id, amount);
        }
    }

    /**
     * The application's OpenTelemetry, as MicroProfile Telemetry offers it, counting in memory.
     */
    static class Telemetry {
        static volatile CountedMetrics metrics;

        @Produces
        OpenTelemetry openTelemetry() {
            return metrics.openTelemetry();
        }
    }
}
