package dev.locksmith.jta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.Locked;
import dev.locksmith.LockType;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.EnlistingDataSource;
import dev.locksmith.testing.H2Database;
import dev.locksmith.testing.InMemoryNaming;
import dev.locksmith.testing.Transactions;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.transaction.Transactional;
import java.util.HashMap;
import java.util.Map;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A misconfigured {@code @Locked(fenced = true)} fails the deployment with a message that names
 * the bad value, where it came from and the fix: a fenced read lock, a method that runs without a
 * transaction, a bad setting, no data source, and no fence table that could be used or created.
 * No Redis is needed for that.
 */
class FencedDeploymentTest {
    private static final String DATA_SOURCE = "java:comp/DefaultDataSource";

    private final H2Database h2 = new H2Database();

    @AfterEach
    void cleanUp() {
        InMemoryNaming.clear();
        h2.close();
    }

    private static String deploymentFailure(Map<String, String> config, Class<?>... beans) {
        Throwable failure = CdiContainers.startFailure(config, beans);

        // The build compatible extension finds the data source at startup, where the container
        // wraps the DeploymentException of its startup observer.
        assertThat(failure).as("the deployment fails").satisfiesAnyOf(
                thrown -> assertThat(thrown).isInstanceOf(DeploymentException.class),
                thrown -> assertThat(thrown).hasCauseInstanceOf(DeploymentException.class));
        return CdiContainers.messages(failure);
    }

    @Test
    void aFencedReadLockFailsNamingTheFix() {
        String message = deploymentFailure(Map.of(), FencedReader.class);

        assertThat(message).contains("FencedReader#report()", "fenced = true with type = READ",
                "Fence the writers (type = WRITE), or remove fenced = true");
    }

    @Test
    void aFencedMethodThatRunsWithoutATransactionFailsNamingItsAttribute() {
        String message = deploymentFailure(Map.of(), NeverTransactional.class, NotSupportedBean.class);

        assertThat(message).contains("NeverTransactional#run()", "@Transactional(NEVER)",
                "Use REQUIRED, REQUIRES_NEW or MANDATORY, or remove fenced = true");
        assertThat(message).contains("NotSupportedBean#run()", "@TransactionAttribute(NOT_SUPPORTED)");
    }

    @Test
    void anOverrideThatIsNoBooleanAndABadTableNameFailNamingTheirKeys() {
        String message = deploymentFailure(Map.of("Locked/fenced", "maybe", "locksmith.fencing.table", "fence-table"),
                Fenced.class);

        assertThat(message).contains("config key Locked/fenced = 'maybe' is not true or false");
        assertThat(message).contains("locksmith.fencing.table: Fence table 'fence-table' is not a plain SQL identifier");
    }

    @Test
    void configurationFencesOrUnfencesOneUseAndTheSameRulesApply() {
        String message = deploymentFailure(Map.of("Locked/fenced", "true"), PlainReader.class);

        assertThat(message).contains("PlainReader#report()", "config key Locked/fenced = 'true' with type = READ");
        try (CdiContainers.Application unfenced = CdiContainers.start(Map.of(
                NeverTransactional.class.getName() + "/run/Locked/fenced", "false"), NeverTransactional.class)) {
            assertThat(unfenced.get(NeverTransactional.class)).as("deployed without fencing").isNotNull();
        }
    }

    @Test
    void noDataSourceFailsNamingTheKeyAndTheFix() {
        String message = deploymentFailure(Map.of(), Fenced.class);

        assertThat(message).contains("locksmith.fencing.data-source = 'java:comp/DefaultDataSource': nothing is bound"
                + " there in JNDI, and there is no DataSource CDI bean either", "Fenced#run",
                "Set locksmith.fencing.data-source to the JNDI name of the application's data source");
    }

    @Test
    void aMissingTableThatMayNotBeCreatedFailsWithItsStatement() {
        InMemoryNaming.bind(DATA_SOURCE, new EnlistingDataSource(h2.xaDataSource(), Transactions.manager()));

        String message = deploymentFailure(Map.of("locksmith.fencing.create-table", "false"), Fenced.class);

        assertThat(message).contains("locksmith.fencing.create-table = 'false', and the fence table locksmith_fence",
                "CREATE TABLE locksmith_fence (lock_name VARCHAR(512) NOT NULL PRIMARY KEY, token BIGINT NOT NULL)");
    }

    @Test
    void aMissingTableThatTheUserHasNoRightToCreateFailsWithItsStatement() {
        h2.execute("CREATE USER reader PASSWORD 'reader'");
        JdbcDataSource reader = new JdbcDataSource();
        // Settings in the URL need admin rights: the reader opens the same database without them.
        reader.setURL(h2.xaDataSource().getURL().split(";")[0]);
        reader.setUser("reader");
        reader.setPassword("reader");
        InMemoryNaming.bind("java:app/jdbc/orders", reader);
        Map<String, String> config = new HashMap<>();
        config.put("locksmith.fencing.data-source", "java:app/jdbc/orders");

        String message = deploymentFailure(config, Fenced.class);

        assertThat(message).contains("locksmith.fencing.table = 'locksmith_fence' in java:app/jdbc/orders",
                "does not exist and could not be created",
                "Create it once as a user who may: CREATE TABLE locksmith_fence");
    }

    @ApplicationScoped
    static class Fenced {
        @Locked(value = "fenced", fenced = true)
        @Transactional
        public void run() {
        }
    }

    @ApplicationScoped
    static class FencedReader {
        @Locked(value = "report", type = LockType.READ, fenced = true)
        public void report() {
        }
    }

    @ApplicationScoped
    static class PlainReader {
        @Locked(value = "report", type = LockType.READ)
        public void report() {
        }
    }

    @ApplicationScoped
    static class NeverTransactional {
        @Locked(value = "never", fenced = true)
        @Transactional(Transactional.TxType.NEVER)
        public void run() {
        }
    }

    @ApplicationScoped
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    static class NotSupportedBean {
        @Locked(value = "not-supported", fenced = true)
        public void run() {
        }
    }
}
