package dev.locksmith.testing;

import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * An H2 database in this JVM's memory, of its own name; {@link #close()} drops it.
 */
public final class H2Database implements TestDatabase, AutoCloseable {
    private final JdbcDataSource dataSource = new JdbcDataSource();

    /**
     * Creates a new, empty database that lives until {@link #close()}.
     */
    public H2Database() {
        // LOCK_TIMEOUT bounds a check that waits for another transaction's fence row.
        dataSource.setURL("jdbc:h2:mem:fence-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
        dataSource.setUser("sa");
        dataSource.setPassword("");
    }

    @Override
    public DataSource dataSource() {
        return dataSource;
    }

    /**
     * @return the same database as an XA data source, for a transaction manager to enlist
     */
    public JdbcDataSource xaDataSource() {
        return dataSource;
    }

    @Override
    public String title() {
        return "H2";
    }

    @Override
    public void close() {
        execute("SHUTDOWN");
    }
}
