package dev.locksmith.benchmarks;

import com.arjuna.ats.jta.cdi.TransactionExtension;
import dev.locksmith.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Locksmith's fenced writes as a Jakarta EE application uses them: every cycle is one JTA
 * transaction of Narayana, begun by {@code @Transactional} on a method of a Weld SE bean that is
 * also {@code @Locked}, and that writes one row of PostgreSQL ({@link CounterRows}) through the
 * application's data source, an {@link EnlistingConnectionPool}. With {@code fenced = true}
 * Locksmith's interceptor checks the lock's fencing token in that transaction first, one
 * {@code UPDATE} of the fence table on the same connection; without, it does not. Both
 * variants run the same bean, so the attribute is the only difference between them. The lock is
 * released after the transaction completes, so a cycle's critical section spans the commit.
 */
final class TransactionalBeanClient implements LockClient {
    private final EnlistingConnectionPool dataSource;
    private final WeldContainer container;
    private final RowWriter rows;
    private final boolean fenced;
    private final Set<String> rowsThere = ConcurrentHashMap.newKeySet();

    /**
     * @param databaseUrl the JDBC URL of the benchmark's PostgreSQL, with the workers' user
     * @param fenced      whether each transaction's lock is {@code @Locked(fenced = true)}
     */
    TransactionalBeanClient(Scenario.Servers servers, List<String> redisUris, String databaseUrl, boolean fenced) {
        if (servers != Scenario.Servers.ONE) {
            throw new UnsupportedOperationException("The fenced-writes benchmark runs on one server, not " + servers);
        }
        if (databaseUrl == null) {
            throw new IllegalArgumentException("The fenced-writes benchmark needs the benchmark's PostgreSQL");
        }
        Path objectStore;
        try {
            // In the worker's temporary directory, the run's, deleted with it: Narayana's shutdown
            // hook still writes there after close().
            objectStore = Files.createTempDirectory("narayana-");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create a directory for Narayana's object store", e);
        }
        // Narayana's log goes there, not into the working directory (a one-phase commit of the one
        // resource writes none); read when its transaction manager is first asked for, below.
        System.setProperty("ObjectStoreEnvironmentBean.objectStoreDir", objectStore.toString());
        System.setProperty("com.arjuna.ats.arjuna.objectstore.objectStoreDir", objectStore.toString());
        this.dataSource = new EnlistingConnectionPool(databaseUrl, com.arjuna.ats.jta.TransactionManager.transactionManager());
        this.container = LockedBeanClient.withLocksmith("transactional-bean-benchmark", redisUris)
                .addExtension(new TransactionExtension())
                .addExtension(new ApplicationDataSource(dataSource))
                .addBeanClasses(RowWriter.class)
                .initialize();
        this.rows = container.select(RowWriter.class).get();
        this.fenced = fenced;
    }

    @Override
    public CycleLock lockFor(Scenario.Kind kind, String name) {
        if (kind != Scenario.Kind.REENTRANT) {
            throw new UnsupportedOperationException("The fenced-writes benchmark takes the reentrant lock only, not " + kind);
        }
        if (rowsThere.add(name)) {
            try (Connection connection = dataSource.getConnection()) {
                CounterRows.ensure(connection, name);
            } catch (SQLException e) {
                throw new IllegalStateException("Could not insert the row of " + name + ": " + e, e);
            }
        }
        return fenced ? inside -> rows.writeFenced(name, inside) : inside -> rows.write(name, inside);
    }

    @Override
    public void close() {
        try {
            container.close();
        } finally {
            dataSource.close();
        }
    }

    /**
     * The application's bean: each method is one transaction that writes the row of the name its
     * first argument gives, under the lock of that name, then runs the cycle's critical section.
     */
    @ApplicationScoped
    public static class RowWriter {
        @Inject
        DataSource dataSource;

        /**
         * @param name   the lock's name, also the row's
         * @param inside the critical section
         * @return what the critical section returned
         */
        @Locked("{0}")
        @Transactional
        public int write(String name, CycleLock.Inside inside) {
            return writeRow(name, inside);
        }

        /**
         * The same, with the lock's fencing token checked in the transaction first.
         */
        @Locked(value = "{0}", fenced = true)
        @Transactional
        public int writeFenced(String name, CycleLock.Inside inside) {
            return writeRow(name, inside);
        }

        private int writeRow(String name, CycleLock.Inside inside) {
            try (Connection connection = dataSource.getConnection()) {
                CounterRows.increment(connection, name);
            } catch (SQLException e) {
                throw new IllegalStateException("Could not write the row of " + name + ": " + e, e);
            }
            return inside.run(true);
        }
    }

    /**
     * Makes the pool the application's one {@code DataSource} bean, where Locksmith looks for the
     * data source of fenced writes when JNDI has none (a CDI-only runtime) and where the bean
     * finds it too.
     */
    public static final class ApplicationDataSource implements Extension {
        private final DataSource dataSource;

        ApplicationDataSource(DataSource dataSource) {
            this.dataSource = dataSource;
        }

        void register(@Observes AfterBeanDiscovery event) {
            event.addBean().types(DataSource.class, Object.class).createWith(context -> dataSource);
        }
    }
}
